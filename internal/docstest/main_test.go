package docstest

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
)

// TestMain finds the Terraform CLI that every test here drives. Nothing
// may be downloaded, so a missing binary is an error, never a skip.
func TestMain(m *testing.M) {
	bin := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if bin == "" {
		if found, err := exec.LookPath("terraform"); err == nil {
			bin = found
			_ = os.Setenv("TF_ACC_TERRAFORM_PATH", bin)
		}
	}
	if bin == "" {
		fmt.Fprintln(os.Stderr, "the docs tests need the Terraform CLI: put `terraform` on PATH or set "+
			"TF_ACC_TERRAFORM_PATH (nothing is downloaded)")
		os.Exit(1)
	}
	os.Exit(m.Run())
}
