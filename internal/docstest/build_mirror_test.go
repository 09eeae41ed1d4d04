package docstest

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// TestBuildMirrorScript runs scripts/build-mirror, which CONTRIBUTING.md's
// "Using a build from source" documents for CI runners and laptops, with a
// HOME of its own: it leaves the user's CLI configuration as it was (the one
// TF_CLI_CONFIG_FILE names, else ~/.terraformrc) and carries its settings
// into the configuration it writes; it refuses a configuration that has its
// own provider_installation block; `terraform init` installs the build with
// that configuration, and `terraform providers lock`, as documented, records
// a hash for each platform in the mirror, which a later init accepts. DIR's
// name holds quotes, a backslash, a dollar sign and spaces, which the
// configuration and the printed command carry as they are; everything the
// script writes is readable by its user only.
func TestBuildMirrorScript(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t)
	cli := providertest.CLIPath(t)
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
	dir := filepath.Join(t.TempDir(), `it's "mintlify" $HOME \ mirror`)
	out, err := run([]string{"PLATFORMS=" + host}, script, dir)
	if err != nil {
		t.Fatalf("scripts/build-mirror: %v\n%s", err, out)
	}
	checkPrivate(t, dir)
	// A second platform's build, for the lock file below: a copy of this
	// one, one byte longer (another platform's build differs, and the lock
	// file keeps one hash per distinct build), in that platform's directory
	// of the mirror. Cross-compiling it (the script's GOOS/GOARCH loop)
	// would cost minutes of compilation in every make test, and the lock
	// hashes whatever the directory holds; it is never run.
	copyPlatform(t, filepath.Join(dir, "mirror"), host, other)
	rc := filepath.Join(dir, "terraform.rc")
	if got := exportedConfig(t, out); got != rc {
		t.Errorf("the command the script prints sets TF_CLI_CONFIG_FILE to %q, want %q:\n%s", got, rc, out)
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
		"      source  = \"mintlify/mintlify\"\n      version = \"~> 0.1.0\"\n    }\n  }\n}\n")
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

// exportedConfig runs the last line the script printed in sh and returns
// the TF_CLI_CONFIG_FILE it sets.
func exportedConfig(t *testing.T, out string) string {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "export TF_CLI_CONFIG_FILE=") {
		t.Fatalf("the script's last line is not the export command:\n%s", out)
	}
	got, err := exec.Command("sh", "-c", last+`; printf %s "$TF_CLI_CONFIG_FILE"`).Output()
	if err != nil {
		t.Fatalf("sh -c %q: %v", last, err)
	}
	return string(got)
}

// checkPrivate fails unless dir and every directory under it are 0700,
// and every file 0600 or 0700 (an executable).
func checkPrivate(t *testing.T, dir string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		mode := info.Mode()
		if (mode.IsDir() && mode.Perm() != 0o700) || (mode.IsRegular() && mode.Perm() != 0o600 && mode.Perm() != 0o700) ||
			(!mode.IsDir() && !mode.IsRegular()) {
			t.Errorf("%s has the mode %s, want a directory 0700 or a file 0600 or 0700", path, mode)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// copyPlatform puts a copy of the mirror's build for platform from, one
// byte longer, into the directory of platform to, under every registry host.
func copyPlatform(t *testing.T, mirror, from, to string) {
	t.Helper()
	// fs.Glob in the mirror: the mirror's own path may hold characters
	// that a pattern would read as its syntax.
	builds, err := fs.Glob(os.DirFS(mirror), "*/mintlify/mintlify/*/"+from+"/terraform-provider-mintlify_v*")
	if err != nil || len(builds) == 0 {
		t.Fatalf("no build for %s in the mirror %s (%v)", from, mirror, err)
	}
	for _, build := range builds {
		build = filepath.Join(mirror, filepath.FromSlash(build))
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
