package provider

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/devprovider"
)

// realCLI runs the terraform CLI against the provider built as a real plugin
// binary, installed through a CLI configuration with dev_overrides, exactly
// as `make demo` does. Acceptance tests run the provider in-process; this is
// for what only a real plugin process shows: signals, and logs at TF_LOG=TRACE.
type realCLI struct {
	t   *testing.T
	dir string
	env []string
}

func newRealCLI(t *testing.T, extraEnv ...string) *realCLI {
	t.Helper()
	root := t.TempDir()
	inst, err := devprovider.Install(t.Context(), filepath.Join("..", ".."), root, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "work")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "TF_CLI_CONFIG_FILE="+inst.CLIConfig, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1",
		"MINTLIFY_API_KEY=", "MINTLIFY_BASE_URL=", "MINTLIFY_PROJECT_ID=")
	return &realCLI{t: t, dir: dir, env: append(env, extraEnv...)}
}

// writeConfig writes main.tf, with the required_providers block that maps
// "mintlify" to the overridden address.
func (c *realCLI) writeConfig(body string) {
	c.t.Helper()
	hcl := "terraform {\n  required_providers {\n    mintlify = { source = \"mintlify/mintlify\" }\n  }\n}\n" + body
	if err := os.WriteFile(filepath.Join(c.dir, "main.tf"), []byte(hcl), 0o600); err != nil {
		c.t.Fatal(err)
	}
}

func (c *realCLI) command(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Getenv("TF_ACC_TERRAFORM_PATH"), args...)
	cmd.Dir = c.dir
	cmd.Env = c.env
	return cmd
}

// run runs terraform to completion and returns its stdout and stderr.
func (c *realCLI) run(args ...string) (stdout, stderr string, err error) {
	cmd := c.command(args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.String(), errOut.String(), err
}

// startUntil starts terraform and returns once a line of its stdout contains
// marker. The rest of stdout keeps being collected into the returned buffer.
func (c *realCLI) startUntil(marker string, args ...string) (*exec.Cmd, *syncBuffer) {
	c.t.Helper()
	cmd := c.command(args...)
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		c.t.Fatal(err)
	}
	out := &syncBuffer{}
	cmd.Stderr = out
	if err := cmd.Start(); err != nil {
		c.t.Fatal(err)
	}
	scanner := bufio.NewScanner(pipe)
	for scanner.Scan() {
		out.WriteString(scanner.Text() + "\n")
		if strings.Contains(scanner.Text(), marker) {
			go func() { _, _ = io.Copy(out, pipe) }()
			return cmd, out
		}
	}
	_ = cmd.Wait()
	c.t.Fatalf("terraform %s ended before printing %q:\n%s", strings.Join(args, " "), marker, out.String())
	return nil, nil
}
