package providertest

import (
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// What Terraform says, plans and keeps in state.

// ExpectError matches diagnostics as Terraform prints them: the phrases in
// order, each space free to be a line break where the CLI wrapped the text.
func ExpectError(phrases ...string) *regexp.Regexp {
	quoted := make([]string, len(phrases))
	for i, p := range phrases {
		quoted[i] = strings.ReplaceAll(regexp.QuoteMeta(p), " ", `\s+`)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(quoted, ".*"))
}

// ExpectRenewalInPlace expects the plan to renew the link of the bundle at
// address in place: an update of the same job, with a new link.
func ExpectRenewalInPlace(address string) resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
		plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate),
		plancheck.ExpectUnknownValue(address, tfjsonpath.New("bundle_url")),
		plancheck.ExpectUnknownValue(address, tfjsonpath.New("expires_at")),
		plancheck.ExpectUnknownValue(address, tfjsonpath.New("helm_values")),
		plancheck.ExpectKnownValue(address, tfjsonpath.New("job_id"), knownvalue.StringRegexp(regexp.MustCompile(`^se_[0-9a-f]{16}$`))),
	}}
}

// CheckBundleLinkWorks downloads the bundle_url of the bundle at address,
// and checks that it answers with as many bytes as its size_bytes says.
func CheckBundleLinkWorks(address string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		attrs := s.RootModule().Resources[address].Primary.Attributes
		resp, err := http.Get(attrs["bundle_url"])
		if err != nil {
			return err
		}
		defer func() { _ = resp.Body.Close() }()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return err
		}
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("downloading the bundle: HTTP %d: %s", resp.StatusCode, body)
		}
		if want := attrs["size_bytes"]; strconv.Itoa(len(body)) != want {
			return fmt.Errorf("downloaded %d bytes, size_bytes says %s", len(body), want)
		}
		return nil
	}
}

// ProgressLines returns the progress an action reported, in order: the
// messages of the CLI's "Action <address> (triggered by <trigger>): "
// lines in out.
func ProgressLines(out, address, trigger string) []string {
	prefix := fmt.Sprintf("Action %s (triggered by %s): ", address, trigger)
	var lines []string
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if msg, ok := strings.CutPrefix(line, prefix); ok {
			lines = append(lines, msg)
		}
	}
	return lines
}

// ExpectLines checks that got matches want line by line, each want a
// regular expression of the whole line; what names the lines in the error.
func ExpectLines(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	ok := len(got) == len(want)
	for i := 0; ok && i < len(want); i++ {
		ok = regexp.MustCompile("^" + want[i] + "$").MatchString(got[i])
	}
	if !ok {
		t.Errorf("%s:\n  %s\nwant:\n  %s", what, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}
