package main

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/devprovider"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// TestSandbox runs `make sandbox` as a user does: it starts the program,
// takes the environment it prints, applies CONTRIBUTING.md's "Try it by hand"
// configuration with the real CLI from another directory, downloads the
// link, presses Ctrl-C, and checks that nothing is left: the process has
// exited cleanly, its directory (provider binary, mirror, CLI configuration)
// is gone and the fake API no longer answers.
func TestSandbox(t *testing.T) {
	terraform := providertest.CLIPath(t)
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "sandbox")
	if out, err := exec.CommandContext(t.Context(), "go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("building the sandbox: %v\n%s", err, out)
	}

	sandbox := exec.Command(bin)
	sandbox.Dir = root
	stdout, err := sandbox.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var output lockedBuffer
	sandbox.Stderr = &output
	if err := sandbox.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sandbox.Process.Kill() }) // in case the test fails before Ctrl-C
	exports := readExports(t, stdout, &output)
	copied := make(chan struct{})
	go func() { _, _ = io.Copy(&output, stdout); close(copied) }()

	for _, name := range []string{"MINTLIFY_API_KEY", "MINTLIFY_BASE_URL", "MINTLIFY_PROJECT_ID", "TF_CLI_CONFIG_FILE"} {
		if exports[name] == "" {
			t.Fatalf("the sandbox printed no %s:\n%s", name, output.String())
		}
	}
	rc, err := os.ReadFile(exports["TF_CLI_CONFIG_FILE"])
	if err != nil {
		t.Fatal(err)
	}
	for _, addr := range devprovider.Addresses {
		if !strings.Contains(string(rc), addr) {
			t.Errorf("the CLI configuration does not override %s:\n%s", addr, rc)
		}
	}

	link := applyReadmeExample(t, terraform, exports)
	initWithHelm(t, terraform, exports, output.String())
	resp, err := http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK || len(body) == 0 {
		t.Fatalf("downloading the bundle link: HTTP %d, %d bytes", resp.StatusCode, len(body))
	}

	// Ctrl-C.
	if err := sandbox.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	<-copied
	if err := sandbox.Wait(); err != nil {
		t.Fatalf("the sandbox did not exit cleanly on Ctrl-C: %v\n%s", err, output.String())
	}
	dir := filepath.Dir(exports["TF_CLI_CONFIG_FILE"])
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("%s is still there after Ctrl-C (stat: %v)", dir, err)
	}
	if !strings.Contains(output.String(), "removed "+dir) {
		t.Errorf("the sandbox did not say it removed %s:\n%s", dir, output.String())
	}
	if resp, err := http.Get(exports["MINTLIFY_BASE_URL"]); err == nil {
		_ = resp.Body.Close()
		t.Errorf("the fake API still answers after Ctrl-C: HTTP %d", resp.StatusCode)
	}
}

// readExports reads the sandbox's output up to the end of its instructions
// and returns the variables of its `export NAME='value'` lines.
func readExports(t *testing.T, stdout io.Reader, output *lockedBuffer) map[string]string {
	t.Helper()
	exports := map[string]string{}
	scanner := bufio.NewScanner(stdout)
	for scanner.Scan() {
		line := scanner.Text()
		output.WriteString(line + "\n")
		if rest, ok := strings.CutPrefix(line, "export "); ok {
			name, value, _ := strings.Cut(rest, "=")
			exports[name] = strings.Trim(value, "'")
		}
		if strings.Contains(line, "Ctrl-C stops") {
			return exports
		}
	}
	t.Fatalf("the sandbox stopped before it was ready:\n%s", output.String())
	return nil
}

// applyReadmeExample runs `terraform init` and `terraform apply` on the
// CONTRIBUTING.md's "Try it by hand" configuration in a directory of its own, with
// the environment the sandbox printed, and returns the bundle link.
func applyReadmeExample(t *testing.T, terraform string, exports map[string]string) string {
	t.Helper()
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "main.tf"), []byte(readmeTryItConfig(t)), 0o600); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
	for name, value := range exports {
		env = append(env, name+"="+value)
	}
	var link string
	for _, args := range [][]string{
		{"init", "-input=false", "-no-color"},
		{"apply", "-auto-approve", "-input=false", "-no-color"},
		{"output", "-raw", "bundle_url"},
	} {
		cmd := exec.CommandContext(t.Context(), terraform, args...)
		cmd.Dir, cmd.Env = work, env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("terraform %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr.String())
		}
		link = string(out)
	}
	return link
}

// readmeTryItConfig is the first HCL block of CONTRIBUTING.md's "Try it by hand".
func readmeTryItConfig(t *testing.T) string {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join("..", "..", "..", "CONTRIBUTING.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "## Try it by hand\n")
	if !ok {
		t.Fatal(`CONTRIBUTING.md has no "## Try it by hand" section`)
	}
	_, block, ok := strings.Cut(section, "```hcl\n")
	if !ok {
		t.Fatal(`CONTRIBUTING.md's "Try it by hand" has no hcl block`)
	}
	config, _, _ := strings.Cut(block, "```")
	return config
}

// lockedBuffer collects output from several goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) WriteString(s string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.WriteString(s)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// initWithHelm checks that, with the environment the sandbox printed, the
// chain guide's example and the README's Helm example (hashicorp/helm
// beside this provider) init and validate as they are, whenever the helm
// provider can be had: from ~/.cache/mintlify-tools, MINTLIFY_HELM_PROVIDER
// or MINTLIFY_SHARED_TOOLS.
func initWithHelm(t *testing.T, terraform string, exports map[string]string, said string) {
	t.Helper()
	_, findErr := devprovider.FindHelmProvider()
	if findErr != nil && os.Getenv("MINTLIFY_SHARED_TOOLS") == "" {
		t.Logf("no helm provider here (%v): the Helm part is not checked", findErr)
		return
	}
	if !strings.Contains(said, "hashicorp/helm "+devprovider.HelmVersion+" is in the mirror too") {
		t.Fatalf("the helm provider is there, and the sandbox did not add it:\n%s", said)
	}
	chain, err := os.ReadFile(filepath.Join("..", "..", "..", "examples", "guides", "commit-to-cluster", "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
	for name, value := range exports {
		env = append(env, name+"="+value)
	}
	for what, config := range map[string]string{"the chain guide's example": string(chain), "the README's Helm example": readmeHelmExample(t)} {
		work := t.TempDir()
		if err := os.WriteFile(filepath.Join(work, "main.tf"), []byte(config), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"init", "-input=false", "-no-color"}, {"validate", "-no-color"}} {
			cmd := exec.CommandContext(t.Context(), terraform, args...)
			cmd.Dir, cmd.Env = work, env
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s, terraform %s: %v\n%s", what, args[0], err, out)
			}
		}
	}
}

// readmeHelmExample is the README's HCL block with a helm_release.
func readmeHelmExample(t *testing.T) string {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join("..", "..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range strings.Split(string(readme), "```hcl\n")[1:] {
		if block, _, _ := strings.Cut(part, "```"); strings.Contains(block, `resource "helm_release"`) {
			return block
		}
	}
	t.Fatal("the README has no HCL block with a helm_release")
	return ""
}
