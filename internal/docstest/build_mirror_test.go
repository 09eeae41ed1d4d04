package docstest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/tfcli"
)

// TestBuildMirrorScript runs scripts/build-mirror, which CONTRIBUTING.md's
// "Using a build from source" documents for CI runners and laptops, with a
// HOME of its own: it leaves the user's CLI configuration as it was (the one
// TF_CLI_CONFIG_FILE names, else ~/.terraformrc) and carries its settings
// into the configuration it writes; it refuses a configuration that has its
// own provider_installation block; `terraform init` installs the build with
// that configuration, and `terraform providers lock`, as documented, records
// a hash for each platform in the mirror, which a later init accepts.
func TestBuildMirrorScript(t *testing.T) {
	t.Parallel()
	cli := tfcli.Path(t)
	home := t.TempDir()
	userRC := "plugin_cache_dir = \"" + filepath.Join(home, "plugin-cache") + "\"\n"
	writeFile(t, filepath.Join(home, ".terraformrc"), userRC)
	if err := os.Mkdir(filepath.Join(home, "plugin-cache"), 0o755); err != nil {
		t.Fatal(err)
	}
	host := runtime.GOOS + "_" + runtime.GOARCH
	other := "darwin_arm64"
	if host == other {
		other = "linux_amd64"
	}
	run := func(env []string, name string, args ...string) (string, error) {
		cmd := exec.Command(name, args...)
		cmd.Env = append(scriptEnv(t, home), env...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	script := filepath.Join("..", "..", "scripts", "build-mirror")

	// ~/.terraformrc is the configuration in force.
	dir := filepath.Join(t.TempDir(), "mintlify")
	out, err := run([]string{"PLATFORMS=" + host}, script, dir)
	if err != nil {
		t.Fatalf("scripts/build-mirror: %v\n%s", err, out)
	}
	// A second platform's build, for the lock file below: a copy of this
	// one, one byte longer (another platform's build differs, and the lock
	// file keeps one hash per distinct build), in that platform's directory
	// of the mirror. Cross-compiling it (the script's GOOS/GOARCH loop)
	// would cost minutes of compilation in every make test, and the lock
	// hashes whatever the directory holds; it is never run.
	copyPlatform(t, filepath.Join(dir, "mirror"), host, other)
	rc := filepath.Join(dir, "terraform.rc")
	if !strings.Contains(out, "export TF_CLI_CONFIG_FILE='"+rc+"'") {
		t.Errorf("the script does not say how to use what it wrote:\n%s", out)
	}
	if got := readFile(t, filepath.Join(home, ".terraformrc")); got != userRC {
		t.Errorf("~/.terraformrc was changed:\n%s", got)
	}
	if written := readFile(t, rc); !strings.Contains(written, userRC) || !strings.Contains(written, "filesystem_mirror") {
		t.Errorf("%s does not hold the user's settings and the mirror:\n%s", rc, written)
	}

	// TF_CLI_CONFIG_FILE names the configuration in force.
	named := filepath.Join(home, "ci.tfrc")
	namedRC := "disable_checkpoint = true\n"
	writeFile(t, named, namedRC)
	dir2 := filepath.Join(t.TempDir(), "mintlify")
	if out, err := run([]string{"PLATFORMS=" + host, "TF_CLI_CONFIG_FILE=" + named}, script, dir2); err != nil {
		t.Fatalf("scripts/build-mirror with TF_CLI_CONFIG_FILE: %v\n%s", err, out)
	}
	if written := readFile(t, filepath.Join(dir2, "terraform.rc")); !strings.Contains(written, namedRC) || strings.Contains(written, userRC) {
		t.Errorf("with TF_CLI_CONFIG_FILE, the configuration written is not based on that file:\n%s", written)
	}
	if got := readFile(t, named); got != namedRC {
		t.Errorf("the file TF_CLI_CONFIG_FILE names was changed:\n%s", got)
	}

	// A configuration with its own provider_installation block.
	own := filepath.Join(home, "own.tfrc")
	writeFile(t, own, "provider_installation {\n  direct {}\n}\n")
	dir3 := filepath.Join(t.TempDir(), "mintlify")
	out, err = run([]string{"PLATFORMS=" + host, "TF_CLI_CONFIG_FILE=" + own}, script, dir3)
	if err == nil || !strings.Contains(out, "already has a provider_installation block") || !strings.Contains(out, "filesystem_mirror") {
		t.Errorf("a configuration with provider_installation: err %v, want a refusal that says what to add:\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir3, "terraform.rc")); err == nil {
		t.Error("the script wrote a configuration after refusing")
	}

	// Install the build, and lock it for both platforms, as documented.
	work := t.TempDir()
	writeFile(t, filepath.Join(work, "main.tf"), "terraform {\n  required_providers {\n    mintlify = {\n"+
		"      source  = \"mintlify/mintlify\"\n      version = \"~> 0.1\"\n    }\n  }\n}\n")
	withRC := []string{"TF_CLI_CONFIG_FILE=" + rc}
	lock := []string{"-chdir=" + work, "providers", "lock", "-fs-mirror=" + filepath.Join(dir, "mirror"),
		"-platform=" + host, "-platform=" + other, "mintlify/mintlify"}
	if out, err := run(withRC, cli, lock...); err != nil {
		t.Fatalf("terraform providers lock: %v\n%s", err, out)
	}
	if hashes := regexp.MustCompile(`"h1:`).FindAllString(readFile(t, filepath.Join(work, ".terraform.lock.hcl")), -1); len(hashes) != 2 {
		t.Errorf("the lock file holds %d h1: hashes, want one for each of %s and %s", len(hashes), host, other)
	}
	if out, err := run(withRC, cli, "-chdir="+work, "init", "-input=false", "-no-color"); err != nil {
		t.Fatalf("terraform init with the lock file: %v\n%s", err, out)
	}

	// CONTRIBUTING.md locks every platform the script builds by default.
	platforms := regexp.MustCompile(`platforms=\$\{PLATFORMS:-([^}]*)\}`).FindStringSubmatch(readRepoFile(t, "scripts/build-mirror"))
	if platforms == nil {
		t.Fatal("scripts/build-mirror: no default PLATFORMS")
	}
	contributing := readRepoFile(t, "CONTRIBUTING.md")
	for _, p := range strings.Fields(platforms[1]) {
		if !strings.Contains(contributing, "-platform="+p) {
			t.Errorf("CONTRIBUTING.md's providers lock command does not lock %s, which scripts/build-mirror builds", p)
		}
	}
}

// scriptEnv is the environment of a user whose home is home: this test's
// own, without a CLI configuration, with Go's caches where they are.
func scriptEnv(t *testing.T, home string) []string {
	t.Helper()
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "TF_CLI_CONFIG_FILE=") {
			env = append(env, kv)
		}
	}
	for _, name := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOENV"} {
		out, err := exec.Command("go", "env", name).Output()
		if err != nil {
			t.Fatalf("go env %s: %v", name, err)
		}
		env = append(env, name+"="+strings.TrimSpace(string(out)))
	}
	return append(env, "HOME="+home, "CHECKPOINT_DISABLE=1")
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// copyPlatform puts a copy of the mirror's build for platform from, one
// byte longer, into the directory of platform to, under every registry host.
func copyPlatform(t *testing.T, mirror, from, to string) {
	t.Helper()
	builds, err := filepath.Glob(filepath.Join(mirror, "*", "mintlify", "mintlify", "*", from, "terraform-provider-mintlify_v*"))
	if err != nil || len(builds) == 0 {
		t.Fatalf("no build for %s in the mirror %s (%v)", from, mirror, err)
	}
	for _, build := range builds {
		target := filepath.Join(filepath.Dir(filepath.Dir(build)), to)
		if err := os.MkdirAll(target, 0o755); err != nil {
			t.Fatal(err)
		}
		raw, err := os.ReadFile(build)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(target, filepath.Base(build)), append(raw, 0), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}
