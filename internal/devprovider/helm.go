package devprovider

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
)

// HelmVersion is the hashicorp/helm provider release that ../shared/tools
// ships, which the tests that chain into Helm install beside this provider.
const HelmVersion = "3.1.2"

// HelmProviderEnv names the variable that points at the helm provider
// binary.
const HelmProviderEnv = "MINTLIFY_HELM_PROVIDER"

// FindHelmProvider returns the absolute path of the helm provider binary:
// $MINTLIFY_HELM_PROVIDER, else terraform-provider-helm in
// $MINTLIFY_TOOLS_DIR, else in ~/.cache/mintlify-tools, where
// ../shared/tools/unpack puts it.
func FindHelmProvider() (string, error) {
	candidates := []string{os.Getenv(HelmProviderEnv)}
	if dir := os.Getenv("MINTLIFY_TOOLS_DIR"); dir != "" {
		candidates = append(candidates, filepath.Join(dir, "terraform-provider-helm"))
	}
	if home, err := os.UserHomeDir(); err == nil {
		candidates = append(candidates, filepath.Join(home, ".cache", "mintlify-tools", "terraform-provider-helm"))
	}
	for _, c := range candidates {
		if fi, err := os.Stat(c); c != "" && err == nil && !fi.IsDir() {
			return filepath.Abs(c)
		}
	}
	return "", errors.New("the ecosystem tests need the hashicorp/helm provider " + HelmVersion + ": run `make test-compat` " +
		"(or ../shared/tools/unpack), or set " + HelmProviderEnv + " to the binary")
}

// InstallWithHelm installs the provider built from moduleDir into dir, as
// Install does, adds the helm provider binary to the same filesystem mirror
// under both registry hosts, and writes dir/ecosystem.tfrc: a CLI
// configuration from which `terraform init` installs both, as from a
// network mirror, and nothing from a registry. It returns that
// configuration's path.
func InstallWithHelm(ctx context.Context, moduleDir, dir, helm string, progress io.Writer) (string, error) {
	if _, err := Install(ctx, moduleDir, dir, progress); err != nil {
		return "", err
	}
	mirror := filepath.Join(dir, "mirror")
	for _, host := range []string{"registry.terraform.io", "registry.opentofu.org"} {
		pkg := filepath.Join(mirror, host, "hashicorp", "helm", HelmVersion, runtime.GOOS+"_"+runtime.GOARCH)
		if err := os.MkdirAll(pkg, 0o755); err != nil {
			return "", err
		}
		if err := os.Symlink(helm, filepath.Join(pkg, "terraform-provider-helm_v"+HelmVersion)); err != nil {
			return "", err
		}
	}
	rc := fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror)
	cliConfig := filepath.Join(dir, "ecosystem.tfrc")
	return cliConfig, os.WriteFile(cliConfig, []byte(rc), 0o600)
}
