package providertest

import (
	"context"
	"errors"
	"io"
	"os"
	"sync"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/devprovider"
)

// BuiltCLI returns a CLI in a new working directory whose CLI configuration
// installs the provider built from this checkout as a plugin binary (see
// devprovider.Install): plan and apply run it through dev_overrides, and
// `terraform init` finds it in a filesystem mirror. The binary is built
// once per test process, the first time a test asks for it; Main
// removes it at the end.
func BuiltCLI(t *testing.T, opts ...CLIOption) *CLI {
	t.Helper()
	return installed(t, builtProvider, opts)
}

// BuiltCLIWithHelm is Built with the real hashicorp/helm provider
// (devprovider.FindHelmProvider) beside this one, both installed by
// `terraform init` from a filesystem mirror, as from a network mirror (see
// devprovider.InstallWithHelm); nothing else can be installed.
func BuiltCLIWithHelm(t *testing.T, opts ...CLIOption) *CLI {
	t.Helper()
	return installed(t, builtWithHelm, opts)
}

// installed is a CLI with the configuration that install returns.
func installed(t *testing.T, install func() (string, error), opts []CLIOption) *CLI {
	t.Helper()
	CLIPath(t) // before a build that would be in vain
	cliConfig, err := install()
	if err != nil {
		t.Fatal(err)
	}
	return newCLI(t, append([]CLIOption{WithEnv("TF_CLI_CONFIG_FILE=" + cliConfig)}, opts...))
}

// builds are the directories that the builds of this test process went
// into, for Main to remove; main is whether Main runs the tests.
var builds struct {
	mu   sync.Mutex
	main bool
	dirs []string
}

// buildDir makes a directory for a build that Main will remove.
func buildDir() (string, error) {
	builds.mu.Lock()
	defer builds.mu.Unlock()
	if !builds.main {
		return "", errors.New("BuiltCLI builds the provider once per test process and Main removes it: " +
			"call Main from the package's TestMain")
	}
	dir, err := os.MkdirTemp("", "mintlify-cli-")
	if err != nil {
		return "", err
	}
	builds.dirs = append(builds.dirs, dir)
	return dir, nil
}

func removeBuilds() error {
	builds.mu.Lock()
	defer builds.mu.Unlock()
	var errs []error
	for _, dir := range builds.dirs {
		errs = append(errs, os.RemoveAll(dir))
	}
	builds.dirs = nil
	return errors.Join(errs...)
}

// builtProvider builds the provider and returns the CLI configuration
// that installs it.
var builtProvider = sync.OnceValues(func() (string, error) {
	root, dir, err := moduleAndBuildDir()
	if err != nil {
		return "", err
	}
	inst, err := devprovider.Install(context.Background(), root, dir, io.Discard)
	return inst.CLIConfig, err
})

// builtWithHelm builds the provider beside the helm provider and returns
// the CLI configuration that installs both.
var builtWithHelm = sync.OnceValues(func() (string, error) {
	helm, err := devprovider.FindHelmProvider()
	if err != nil {
		return "", err
	}
	root, dir, err := moduleAndBuildDir()
	if err != nil {
		return "", err
	}
	return devprovider.InstallWithHelm(context.Background(), root, dir, helm, io.Discard)
})

func moduleAndBuildDir() (root, dir string, err error) {
	if root, err = moduleRoot(); err != nil {
		return "", "", err
	}
	if dir, err = buildDir(); err != nil {
		return "", "", err
	}
	return root, dir, nil
}
