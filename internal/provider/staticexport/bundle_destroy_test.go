package staticexport

import (
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

var linkExpiry = regexp.MustCompile(`keeps working until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ, for anyone`)

// TestDestroyWarnsTheLinkStillWorks runs the real `terraform destroy` (the
// provider as a plugin binary: acceptance tests cannot see warnings): the
// API cannot revoke a link, so destroying a bundle warns, once per bundle,
// that its link works until expires_at, and names the job. A bundle whose
// export never produced a link has nothing to warn about.
func TestDestroyWarnsTheLinkStillWorks(t *testing.T) {
	t.Parallel()
	fake := fakeapi.New(
		fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{} }}))
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)

	cli := providertest.BuiltCLI(t, providertest.WithEnv("MINTLIFY_API_KEY="+fakeapi.DefaultAPIKey, "MINTLIFY_BASE_URL="+srv.URL))
	cli.WriteConfig(providertest.BundleConfig("docs.example.com", ""))
	cli.MustRun("apply", "-auto-approve", "-input=false", "-no-color")
	res := cli.MustRun("destroy", "-auto-approve", "-input=false", "-no-color")
	out := res.Stdout + res.Stderr
	jobID := fake.JobIDs()[0]
	if n := strings.Count(out, "Warning: Bundle Link Still Works Until It Expires"); n != 1 {
		t.Errorf("the destroy warned %d times, want once:\n%s", n, out)
	}
	// Terraform wraps the detail; the words are what count.
	words := strings.Join(strings.Fields(out), " ")
	if !strings.Contains(words, "static export job "+jobID) || !linkExpiry.MatchString(words) {
		t.Errorf("the warning does not name the job %s and the link's expiry:\n%s", jobID, out)
	}
	if strings.Contains(out, "X-Amz-Signature") {
		t.Errorf("the destroy output shows the link:\n%s", out)
	}
}
