package provider

import (
	"encoding/json"
	"os"
	"os/exec"
	"sync"
	"testing"

	"github.com/hashicorp/go-version"
)

// cliVersion is the version of the CLI under test (TF_ACC_TERRAFORM_PATH),
// asked once per test process. OpenTofu prints its own version in the same
// field, which is also what it checks `required_version` against.
var cliVersion = sync.OnceValues(func() (*version.Version, error) {
	out, err := exec.Command(os.Getenv("TF_ACC_TERRAFORM_PATH"), "version", "-json").Output()
	if err != nil {
		return nil, err
	}
	var v struct {
		Version string `json:"terraform_version"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		return nil, err
	}
	return version.NewVersion(v.Version)
})

// skipUnlessCLIMeets is tfversion.SkipBelow for tests that run the CLI
// directly, and for examples that declare `required_version`: it skips when
// the CLI under test does not meet constraint (such as ">= 1.11"), with the
// words `make test-compat` counts as a version skip.
func skipUnlessCLIMeets(t *testing.T, constraint string) {
	t.Helper()
	v, err := cliVersion()
	if err != nil {
		t.Fatalf("asking the CLI under test for its version: %v", err)
	}
	c, err := version.NewConstraint(constraint)
	if err != nil {
		t.Fatalf("version constraint %q: %v", constraint, err)
	}
	if !c.Check(v) {
		t.Skipf("Terraform CLI version %s is below minimum version %s: skipping test", v, constraint)
	}
}
