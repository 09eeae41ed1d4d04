package devprovider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Binary is a Terraform or OpenTofu executable and what it says it is.
type Binary struct {
	// Path is the absolute path of the executable.
	Path string
	// Name is "Terraform 1.5.7" or "OpenTofu 1.12.6".
	Name string
	// Version is the bare version, such as "1.5.7".
	Version  string
	OpenTofu bool
}

// IdentifyBinary finds bin (a path, or a name on PATH) and asks it what it is,
// under the CLI configuration cliConfig: both CLIs print
// `terraform_version` in `version -json`; OpenTofu names itself in the
// plain `version`.
func IdentifyBinary(bin, cliConfig string) (Binary, error) {
	path, err := exec.LookPath(bin)
	if err != nil {
		return Binary{}, err
	}
	path, _ = filepath.Abs(path)
	command := func(args ...string) *exec.Cmd {
		cmd := exec.Command(path, args...)
		cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+cliConfig, "CHECKPOINT_DISABLE=1")
		return cmd
	}
	out, err := command("version", "-json").Output()
	if err != nil {
		return Binary{}, fmt.Errorf("%s version -json: %w", path, err)
	}
	var v struct {
		Version string `json:"terraform_version"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		return Binary{}, fmt.Errorf("%s version -json: %w", path, err)
	}
	plain, _ := command("version").Output()
	c := Binary{Path: path, Version: v.Version, OpenTofu: bytes.HasPrefix(plain, []byte("OpenTofu"))}
	c.Name = "Terraform " + c.Version
	if c.OpenTofu {
		c.Name = "OpenTofu " + c.Version
	}
	return c, nil
}
