package devprovider

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
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
	if err := mirrorHelm(mirror, helm); err != nil {
		return "", err
	}
	rc := fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror)
	cliConfig := filepath.Join(dir, "ecosystem.tfrc")
	return cliConfig, os.WriteFile(cliConfig, []byte(rc), 0o600)
}

// HelmAddresses are the helm provider's registry addresses: `source =
// "hashicorp/helm"` under Terraform and under OpenTofu.
var HelmAddresses = []string{"registry.terraform.io/hashicorp/helm", "registry.opentofu.org/hashicorp/helm"}

// mirrorHelm lays the helm provider binary out in the filesystem mirror at
// dir, as HelmVersion, under both registry addresses.
func mirrorHelm(dir, helm string) error {
	for _, addr := range HelmAddresses {
		pkg := filepath.Join(dir, filepath.FromSlash(addr), HelmVersion, runtime.GOOS+"_"+runtime.GOARCH)
		if err := os.MkdirAll(pkg, 0o755); err != nil {
			return err
		}
		if err := os.Symlink(helm, filepath.Join(pkg, "terraform-provider-helm_v"+HelmVersion)); err != nil {
			return err
		}
	}
	return nil
}

// AddHelm adds the helm provider binary helm to the workspace's mirror and
// rewrites its CLI configuration so that `terraform init` installs
// hashicorp/helm from the mirror too, besides this provider.
func (w *Workspace) AddHelm(helm string) error {
	mirror := filepath.Join(w.Dir, "mirror")
	if err := mirrorHelm(mirror, helm); err != nil {
		return err
	}
	rc := cliConfig(filepath.Dir(w.Binary), mirror, append(slices.Clone(Addresses), HelmAddresses...))
	return os.WriteFile(w.CLIConfig, []byte(rc), 0o600)
}

// sharedHelmArchive is the helm provider in the prebuilt tools
// (MINTLIFY_SHARED_TOOLS), xz-compressed, listed in their SHA256SUMS.
const sharedHelmArchive = "terraform-provider-helm_" + HelmVersion + "_linux_amd64.xz"

// SandboxHelm finds the helm provider for a sandbox in dir: as
// FindHelmProvider does, else unpacked into dir from the prebuilt tools
// that $MINTLIFY_SHARED_TOOLS names, once its archive matches their
// SHA256SUMS (linux_amd64 only, with xz on PATH). It returns "" and why
// when there is none.
func SandboxHelm(ctx context.Context, dir string) (string, string) {
	if helm, err := FindHelmProvider(); err == nil {
		return helm, ""
	}
	tools := os.Getenv("MINTLIFY_SHARED_TOOLS")
	if tools == "" {
		return "", "neither MINTLIFY_SHARED_TOOLS nor ~/.cache/mintlify-tools/terraform-provider-helm is there"
	}
	if runtime.GOOS+"_"+runtime.GOARCH != "linux_amd64" {
		return "", "MINTLIFY_SHARED_TOOLS holds the helm provider for linux_amd64 only"
	}
	check := exec.CommandContext(ctx, "sha256sum", "--quiet", "--ignore-missing", "-c", "SHA256SUMS")
	check.Dir = tools
	if out, err := check.CombinedOutput(); err != nil {
		return "", fmt.Sprintf("the prebuilt tools in %s do not match their SHA256SUMS: %v %s", tools, err, out)
	}
	helm := filepath.Join(dir, "terraform-provider-helm")
	unpack := exec.CommandContext(ctx, "sh", "-c", `xz -dc "$1" > "$2" && chmod 0700 "$2"`, "sh",
		filepath.Join(tools, sharedHelmArchive), helm)
	if out, err := unpack.CombinedOutput(); err != nil {
		return "", fmt.Sprintf("unpacking %s: %v %s", sharedHelmArchive, err, out)
	}
	return helm, ""
}
