package staticexport

import "testing"

func TestHelmValues(t *testing.T) {
	t.Parallel()
	link := `https://b.s3.amazonaws.com/se_1/bundle.tar.gz?X-Amz-Date=20261121T090000Z&X-Amz-Signature=ab"c`
	got := helmValues(link, "")
	want := "staticExport:\n  enabled: true\n  bundleUrl: \"https://b.s3.amazonaws.com/se_1/bundle.tar.gz?X-Amz-Date=20261121T090000Z&X-Amz-Signature=ab\\\"c\"\n"
	if got != want {
		t.Errorf("helmValues without version =\n%s\nwant\n%s", got, want)
	}
	got = helmValues("https://x/y", "2024-06-01")
	want = "staticExport:\n  enabled: true\n  bundleUrl: \"https://x/y\"\n  version: \"2024-06-01\"\n"
	if got != want {
		t.Errorf("helmValues with version =\n%s\nwant\n%s", got, want)
	}
}
