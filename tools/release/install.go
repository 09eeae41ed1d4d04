package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/devprovider"
)

// commandTimeout bounds one CLI command.
const commandTimeout = 3 * time.Minute

// cliResult is how installing the release went under one CLI.
type cliResult struct {
	cli            devprovider.Binary
	passed, failed int
	elapsed        time.Duration
}

// negativeCase is a broken release that `init` must refuse, with the words
// every CLI's error has for it.
type negativeCase struct {
	namespace, what, error string
}

var negativeCases = []negativeCase{
	{tamperedZip, "tampered zip", "archive has incorrect checksum"},
	{wrongSignature, "wrong signature (SHA256SUMS recomputed for a tampered zip)", "error checking signature"},
	{unknownKey, "unknown key (SHA256SUMS signed by a key the registry does not advertise)", "authentication signature from unknown issuer"},
}

// rehearseInstall installs the release under c as a user would and runs
// the negative cases. The installation's checks build on each other and
// stop at the first failure; the negative cases run whatever happened.
func (r *rehearsal) rehearseInstall(ctx context.Context, c devprovider.Binary) cliResult {
	fmt.Printf("\n==> %s (%s)\n", c.Name, c.Path)
	start := time.Now()
	res := cliResult{cli: c}
	w := &workdir{r: r, cli: c, dir: filepath.Join(r.dir, "cli", strings.ReplaceAll(strings.ToLower(c.Name), " ", "-"))}
	w.env = r.cliEnv()
	checks := []struct {
		what  string
		check func(context.Context) (string, error)
	}{
		{"init", w.init},
		{"lock file", w.checkLock},
		{"providers lock", w.providersLock},
		{"apply examples/quickstart against the fake API", w.apply},
		{"init again from the lock file, then plan", w.reinit},
	}
	for i, ch := range checks {
		if err := step(ch.what, func() (string, error) { return ch.check(ctx) }); err != nil {
			res.failed++
			for _, skipped := range checks[i+1:] {
				fmt.Printf("  skip  %s (it needs the checks above)\n", skipped.what)
			}
			break
		}
		res.passed++
	}
	for _, n := range negativeCases {
		if err := step(n.what, func() (string, error) { return w.mustFail(ctx, n) }); err != nil {
			res.failed++
		} else {
			res.passed++
		}
	}
	res.elapsed = time.Since(start)
	return res
}

// workdir is the working directory of one CLI's checks.
type workdir struct {
	r    *rehearsal
	cli  devprovider.Binary
	dir  string
	env  []string
	lock []byte // the lock file the first init wrote
}

func (w *workdir) quickstart() string { return filepath.Join(w.dir, "quickstart") }

func (w *workdir) address(namespace string) string {
	return w.r.reg.host + "/" + namespace + "/" + providerType
}

// installed matches the CLIs' line for an installed provider, such as
// "- Installed localhost:1234/mintlify/mintlify v0.1.0 (self-signed, key ID 0123456789ABCDEF)".
var installed = regexp.MustCompile(`Installed (\S+) v(\S+) \(([^)]*)\)`)

// init copies examples/quickstart from the commit with the provider's
// source pointing at the registry, runs init, and checks that it installed
// the release, verified with the release key.
func (w *workdir) init(ctx context.Context) (string, error) {
	src := filepath.Join(w.r.first.clone, "examples", "quickstart")
	if err := copyQuickstart(src, w.quickstart(), w.address(genuine), w.r.constraint()); err != nil {
		return "", err
	}
	out, err := w.run(ctx, w.quickstart(), "init", "-input=false", "-no-color")
	if err != nil {
		return "", err
	}
	return w.checkInstalled(out)
}

func (w *workdir) checkInstalled(out string) (string, error) {
	m := installed.FindStringSubmatch(out)
	if m == nil || m[1] != w.address(genuine) || m[2] != w.r.version || !strings.Contains(m[3], w.r.key.keyID()) {
		return "", fmt.Errorf("init did not say it installed %s v%s signed by key ID %s:\n%s",
			w.address(genuine), w.r.version, w.r.key.keyID(), tail(out, 20))
	}
	return fmt.Sprintf("installed %s v%s (%s)", m[1], m[2], m[3]), nil
}

// checkLock reads the lock file the init wrote: the version, the
// constraint, the h1: hash of the zip's contents, and a zh: hash for every
// line of SHA256SUMS, nothing else.
func (w *workdir) checkLock(context.Context) (string, error) {
	path := filepath.Join(w.quickstart(), ".terraform.lock.hcl")
	lock, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	w.lock = lock
	got, err := readLock(lock, w.address(genuine))
	if err != nil {
		return "", err
	}
	want := lockedProvider{version: w.r.version, constraints: w.r.constraint(), hashes: []string{w.r.h1}}
	for hash := range sumsLines(w.r.reg.releases[genuine].sums) {
		want.hashes = append(want.hashes, "zh:"+hash)
	}
	if err := got.equal(want); err != nil {
		return "", fmt.Errorf("%w\n%s", err, lock)
	}
	return fmt.Sprintf("version %s, constraints %q, the zip's h1: and a zh: for each of the %d lines of SHA256SUMS",
		got.version, got.constraints, len(want.hashes)-1), nil
}

// providersLock runs `providers lock`, which fetches and verifies the
// release again, and requires the lock file to stay as init wrote it.
func (w *workdir) providersLock(ctx context.Context) (string, error) {
	if _, err := w.run(ctx, w.quickstart(), "providers", "lock"); err != nil {
		return "", err
	}
	if err := w.lockUnchanged(); err != nil {
		return "", err
	}
	return "the lock file stays as init wrote it", nil
}

func (w *workdir) lockUnchanged() error {
	now, err := os.ReadFile(filepath.Join(w.quickstart(), ".terraform.lock.hcl"))
	if err != nil {
		return err
	}
	if !bytes.Equal(now, w.lock) {
		return fmt.Errorf("the lock file changed; before:\n%s\nafter:\n%s", w.lock, now)
	}
	return nil
}

// apply applies the quickstart with the installed provider against the
// fake API and reads an output that only the provider can have set.
func (w *workdir) apply(ctx context.Context) (string, error) {
	if _, err := w.run(ctx, w.quickstart(), "apply", "-auto-approve", "-input=false", "-no-color",
		"-var", "agent_job_id="+devprovider.DemoAgentJobID); err != nil {
		return "", err
	}
	out, err := w.run(ctx, w.quickstart(), "output", "-raw", "page_count")
	if err != nil {
		return "", err
	}
	if out != fmt.Sprint(fakePages) {
		return "", fmt.Errorf("output page_count is %q, want %d", out, fakePages)
	}
	return fmt.Sprintf("page_count = %s", out), nil
}

// reinit removes what init installed and installs again from the lock
// file alone (-lockfile=readonly), as CI does from a committed lock file,
// then plans: the applied configuration needs no change.
func (w *workdir) reinit(ctx context.Context) (string, error) {
	if err := os.RemoveAll(filepath.Join(w.quickstart(), ".terraform")); err != nil {
		return "", err
	}
	out, err := w.run(ctx, w.quickstart(), "init", "-input=false", "-no-color", "-lockfile=readonly")
	if err != nil {
		return "", err
	}
	if _, err := w.checkInstalled(out); err != nil {
		return "", err
	}
	if err := w.lockUnchanged(); err != nil {
		return "", err
	}
	if _, err := w.run(ctx, w.quickstart(), "plan", "-detailed-exitcode", "-input=false", "-no-color",
		"-var", "agent_job_id="+devprovider.DemoAgentJobID); err != nil {
		return "", fmt.Errorf("the plan after the reinstall is not empty: %w", err)
	}
	return "installed and verified again with -lockfile=readonly; the plan is empty", nil
}

// mustFail runs init for a broken release: it must fail with the expected
// error and leave no lock file and no provider behind.
func (w *workdir) mustFail(ctx context.Context, n negativeCase) (string, error) {
	dir := filepath.Join(w.dir, n.namespace)
	config := fmt.Sprintf("terraform {\n  required_providers {\n    mintlify = {\n      source  = %q\n      version = %q\n    }\n  }\n}\n",
		w.address(n.namespace), w.r.constraint())
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o600); err != nil {
		return "", err
	}
	out, err := w.run(ctx, dir, "init", "-input=false", "-no-color")
	if err == nil {
		return "", fmt.Errorf("init succeeded:\n%s", tail(out, 20))
	}
	if !strings.Contains(strings.Join(strings.Fields(out), " "), n.error) {
		return "", fmt.Errorf("init failed without %q:\n%s", n.error, tail(out, 20))
	}
	// OpenTofu leaves its installation lock file (.terraform/providers/
	// HOST/NAMESPACE/TYPE/VERSION/PLATFORM.lock) behind, never the package.
	pkg := filepath.Join(".terraform", "providers", w.r.reg.host, n.namespace, providerType, w.r.version, w.r.platform())
	for _, left := range []string{".terraform.lock.hcl", pkg} {
		if _, err := os.Stat(filepath.Join(dir, left)); err == nil {
			return "", fmt.Errorf("init failed but left %s behind", left)
		}
	}
	return fmt.Sprintf("init fails with %q, installs nothing", n.error), nil
}

// run runs the CLI in dir and returns its output, or an error with its end.
func (w *workdir) run(ctx context.Context, dir string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, commandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, w.cli.Path, args...)
	cmd.Dir = dir
	cmd.Env = w.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) || ctx.Err() != nil {
			return string(out), fmt.Errorf("%s %s: %v\n%s", filepath.Base(w.cli.Path), strings.Join(args, " "), err, tail(string(out), 30))
		}
		return string(out), err
	}
	return string(out), nil
}

func printTable(results []cliResult) {
	fmt.Println()
	fmt.Println("| CLI | checks passed | failed | time |")
	fmt.Println("|---|---|---|---|")
	for _, res := range results {
		fmt.Printf("| %s | %d | %d | %s |\n", res.cli.Name, res.passed, res.failed, res.elapsed.Round(100*time.Millisecond))
	}
}
