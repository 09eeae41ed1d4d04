//go:build ecosystem

package docstest

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/mintlify/terraform-provider-mintlify/internal/devprovider"
)

// helmInstall is built once per test binary: this provider, built from the
// checkout, and the real hashicorp/helm provider in one filesystem mirror.
var helmInstall = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "mintlify-docstest-")
	if err != nil {
		return "", err
	}
	helm, err := devprovider.FindHelmProvider()
	if err != nil {
		return "", err
	}
	return devprovider.InstallWithHelm(context.Background(), filepath.Join("..", ".."), dir, helm, io.Discard)
})

func init() {
	// TestExamplesAsWritten initialises and validates the examples that use
	// helm too, with the real helm provider.
	helmExamplesCLIConfig = helmInstall
}
