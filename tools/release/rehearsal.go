package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"

	"github.com/mintlify/terraform-provider-mintlify/internal/devprovider"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
)

// The release the rehearsal builds: the version being developed, under the
// names goreleaser gives it.
const (
	projectName = "terraform-provider-mintlify"
	// originURL is what goreleaser reads as the clones' remote: it names
	// the project (for the archives) and the repository a real release
	// would go to. Nothing is pushed there.
	originURL = "https://github.com/mintlify/terraform-provider-mintlify.git"
	// goreleaserVersion is the release the GNUmakefile installs.
	goreleaserVersion = "2.16.0"
)

// rehearsal is the state of one run: the commit, the temporary directory
// that holds everything it creates, and what it started.
type rehearsal struct {
	opts    options
	repo    string // the checkout's top level
	commit  string
	dirty   bool
	version string // 0.1.0
	dir     string // the temporary directory
	cliRC   string // a CLI configuration that installs from each provider's registry only
	clis    []devprovider.Binary
	// cyclonedxGomod is the absolute path of the SBOMs' command.
	cyclonedxGomod string
	key            *gpgKey         // the release key
	stranger       *pendingKey     // a key the registry does not advertise
	first          *releaseBuild   // the build the registry serves, set by serve
	reg            *registry       // set by serve
	h1             string          // the h1: hash of the genuine zip, set by serve
	fake           *fakeapi.Served // set by startFake
	closers        []func() error  // run by close, last first
}

// pendingKey is a key being made in the background.
type pendingKey struct {
	done chan struct{}
	key  *gpgKey
	err  error
}

// wait returns the key once it is made.
func (p *pendingKey) wait() (*gpgKey, error) {
	<-p.done
	return p.key, p.err
}

func newRehearsal(ctx context.Context, opts options) (*rehearsal, error) {
	repo, err := git(ctx, "", "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("run the rehearsal inside the project's git checkout: %w", err)
	}
	commit, err := git(ctx, repo, "rev-parse", "HEAD")
	if err != nil {
		return nil, err
	}
	status, err := git(ctx, repo, "status", "--porcelain")
	if err != nil {
		return nil, err
	}
	r := &rehearsal{opts: opts, repo: repo, commit: commit, dirty: status != "", version: devprovider.MirrorVersion}
	if r.dir, err = os.MkdirTemp("", "mintlify-release-"); err != nil {
		return nil, err
	}
	r.closers = append(r.closers, r.removeDir)
	r.cliRC = filepath.Join(r.dir, "terraform.rc")
	// An explicit direct block: no implied local mirror
	// (~/.terraform.d/plugins and the like) takes part.
	if err := os.WriteFile(r.cliRC, []byte("provider_installation {\n  direct {}\n}\n"), 0o600); err != nil {
		r.close()
		return nil, err
	}
	return r, nil
}

func (r *rehearsal) removeDir() error {
	if r.opts.keep {
		fmt.Println("  kept", r.dir)
		return nil
	}
	return os.RemoveAll(r.dir)
}

// close stops what the rehearsal started (the registry, the fake API, the
// gpg agents) and removes the temporary directory.
func (r *rehearsal) close() {
	for i := len(r.closers) - 1; i >= 0; i-- {
		if err := r.closers[i](); err != nil {
			fmt.Fprintln(os.Stderr, "cleaning up:", err)
		}
	}
}

func (r *rehearsal) platform() string { return runtime.GOOS + "_" + runtime.GOARCH }

// prepare checks the tools, makes the throwaway signing keys and starts
// the fake API.
func (r *rehearsal) prepare(ctx context.Context) error {
	err := step("tools", func() (string, error) {
		found, err := r.checkTools(ctx)
		return strings.Join(found, ", "), err
	})
	if err != nil {
		return err
	}
	// The release key signs the release; a stranger's key, made meanwhile,
	// signs the SHA256SUMS of the unknown-key case.
	r.stranger = &pendingKey{done: make(chan struct{})}
	go func() {
		defer close(r.stranger.done)
		r.stranger.key, r.stranger.err = newGPGKey(ctx, filepath.Join(r.dir, "gnupg-stranger"), "Someone Else <someone-else@example.invalid>")
	}()
	r.closers = append(r.closers, func() error {
		if k, _ := r.stranger.wait(); k != nil {
			return k.close()
		}
		return nil
	})
	err = step("throwaway signing key", func() (string, error) {
		k, err := newGPGKey(ctx, filepath.Join(r.dir, "gnupg"), "Mintlify Provider Release Rehearsal <release-rehearsal@example.invalid>")
		if err != nil {
			return "", err
		}
		r.key = k
		r.closers = append(r.closers, k.close)
		return fmt.Sprintf("%s, key ID %s, in a temporary GNUPGHOME", k.algorithm, k.keyID()), nil
	})
	if err != nil {
		return err
	}
	return r.startFake()
}

var (
	goreleaserVersionLine     = regexp.MustCompile(`(?m)^GitVersion:\s*v?(\S+)`)
	cyclonedxGomodVersionLine = regexp.MustCompile(`(?m)^Version:\s*v?(\S+)`)
)

// checkTools finds goreleaser, cyclonedx-gomod, gpg and the CLIs, and says
// which versions.
func (r *rehearsal) checkTools(ctx context.Context) ([]string, error) {
	out, err := exec.CommandContext(ctx, r.opts.goreleaser, "--version").CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("goreleaser (%s) does not run: %v; `make test-release` installs v%s with go install",
			r.opts.goreleaser, err, goreleaserVersion)
	}
	m := goreleaserVersionLine.FindSubmatch(out)
	if m == nil || string(m[1]) != goreleaserVersion {
		return nil, fmt.Errorf("%s is not goreleaser %s (`make test-release` installs it):\n%s", r.opts.goreleaser, goreleaserVersion, out)
	}
	found := []string{"goreleaser " + goreleaserVersion}
	if r.cyclonedxGomod, err = exec.LookPath(r.opts.cyclonedxGomod); err == nil {
		r.cyclonedxGomod, err = filepath.Abs(r.cyclonedxGomod)
	}
	if err != nil {
		return nil, fmt.Errorf("cyclonedx-gomod (%s), which writes the SBOMs, is not found: %v; `make test-release` installs v%s with go install",
			r.opts.cyclonedxGomod, err, cyclonedxGomodVersion)
	}
	out, err = exec.CommandContext(ctx, r.cyclonedxGomod, "version").CombinedOutput()
	if m := cyclonedxGomodVersionLine.FindSubmatch(out); err != nil || m == nil || string(m[1]) != cyclonedxGomodVersion {
		return nil, fmt.Errorf("%s is not cyclonedx-gomod %s (`make test-release` installs it): %v\n%s",
			r.cyclonedxGomod, cyclonedxGomodVersion, err, out)
	}
	found = append(found, "cyclonedx-gomod "+cyclonedxGomodVersion)
	gpgOut, err := exec.CommandContext(ctx, "gpg", "--version").Output()
	if err != nil {
		return nil, errors.New("gpg is not installed: install GnuPG (Debian and Ubuntu: apt-get install gnupg)")
	}
	found = append(found, strings.Replace(strings.SplitN(string(gpgOut), "\n", 2)[0], "gpg (GnuPG)", "gpg", 1))
	for _, bin := range r.opts.clis {
		c, err := devprovider.IdentifyBinary(bin, r.cliRC)
		if err != nil {
			return nil, fmt.Errorf("the CLI %q: %w", bin, err)
		}
		r.clis = append(r.clis, c)
		found = append(found, c.Name)
	}
	return found, nil
}

// git runs git in dir and returns its trimmed output.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(exit.Stderr)))
		}
		return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out)), nil
}
