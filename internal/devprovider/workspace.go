package devprovider

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
)

// Workspace is a temporary directory with a freshly built provider and the
// CLI configuration that installs it: what the demo, the sandbox and the
// end-to-end benchmark set up before they start a fake API (StartFake) and
// run the CLI.
type Workspace struct {
	Installation
	// Dir is the temporary directory; Close removes it.
	Dir string
}

// NewWorkspace creates a temporary directory whose name starts with prefix
// and installs the provider built from the module at moduleDir into it (see
// Install), telling progress. On error it leaves nothing behind.
func NewWorkspace(ctx context.Context, moduleDir, prefix string, progress io.Writer) (*Workspace, error) {
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return nil, err
	}
	inst, err := Install(ctx, moduleDir, dir, progress)
	if err != nil {
		if ctx.Err() != nil {
			err = errors.New("interrupted while building the provider")
		}
		return nil, errors.Join(err, os.RemoveAll(dir))
	}
	return &Workspace{Installation: inst, Dir: dir}, nil
}

// Close removes the directory and everything in it.
func (w *Workspace) Close() error { return os.RemoveAll(w.Dir) }

// Env is the environment for the Terraform CLI: this process's, with
// TF_CLI_CONFIG_FILE pointing at the workspace's configuration,
// TF_IN_AUTOMATION and CHECKPOINT_DISABLE set, then extra (such as
// Fake.Env()).
func (w *Workspace) Env(extra ...string) []string {
	env := append(os.Environ(), "TF_CLI_CONFIG_FILE="+w.CLIConfig, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")
	return append(env, extra...)
}

// Terraform returns the path of the Terraform CLI on PATH.
func Terraform() (string, error) {
	path, err := exec.LookPath("terraform")
	if err != nil {
		return "", errors.New("the Terraform CLI is not on PATH; install it (nothing is downloaded)")
	}
	return path, nil
}
