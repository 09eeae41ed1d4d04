package devprovider

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Workspace is a temporary directory with a freshly built provider and the
// CLI configuration that installs it: what the demo, the sandbox and the
// end-to-end benchmark set up before they start a fake API (StartAPI) and
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
// devprovider.Env(api)).
func (w *Workspace) Env(extra ...string) []string {
	env := append(os.Environ(), "TF_CLI_CONFIG_FILE="+w.CLIConfig, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")
	return append(env, extra...)
}

// Commands runs the commands of one Terraform CLI with the workspace's
// configuration.
func (w *Workspace) Commands(terraform string, extra ...string) Commands {
	return Commands{Path: terraform, Env: w.Env(extra...)}
}

// Commands runs the commands of a Terraform or OpenTofu CLI, each in the
// working directory it is given, with one environment: what the demo and
// the benchmarks share. (Tests drive the CLI through providertest.CLI.)
type Commands struct {
	// Path is the CLI's executable.
	Path string
	// Env is the whole environment of each command, as from Workspace.Env.
	Env []string
}

// Command returns the CLI command args, to run in dir.
func (r Commands) Command(ctx context.Context, dir string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, r.Path, args...)
	cmd.Dir = dir
	cmd.Env = r.Env
	return cmd
}

// Run runs the CLI command args in dir. When it fails, the error holds the
// last 40 lines of its output.
func (r Commands) Run(ctx context.Context, dir string, args ...string) error {
	out, err := r.Command(ctx, dir, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("terraform %s in %s: %v\n%s", args[0], filepath.Base(dir), err, Tail(out, 40))
	}
	return nil
}

// Output returns the value of the root module's output name in dir, as
// `terraform output -raw` prints it.
func (r Commands) Output(ctx context.Context, dir, name string) (string, error) {
	out, err := r.Command(ctx, dir, "output", "-raw", name).Output()
	if err != nil {
		return "", fmt.Errorf("terraform output %s: %v", name, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// Tail returns the last n lines of a command's output.
func Tail(out []byte, n int) string {
	all := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	return strings.Join(all[max(len(all)-n, 0):], "\n")
}

// Terraform returns the path of the Terraform CLI on PATH.
func Terraform() (string, error) {
	path, err := exec.LookPath("terraform")
	if err != nil {
		return "", errors.New("the Terraform CLI is not on PATH; install it (nothing is downloaded)")
	}
	return path, nil
}
