package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/sumdb/dirhash"

	"github.com/mintlify/terraform-provider-mintlify/internal/devprovider"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
)

// fakePages is the page count of every export of the fake API: the apply
// must report it.
const fakePages = 128

// serve checks the release's SHA256SUMS and signature, then serves it and
// its broken copies from the registry.
func (r *rehearsal) serve(ctx context.Context, b *releaseBuild) error {
	r.first = b
	err := step("SHA256SUMS and signature", func() (string, error) {
		return r.checkSums(ctx, b)
	})
	if err != nil {
		return err
	}
	return step("registry", func() (string, error) {
		stranger, err := r.stranger.wait()
		if err != nil {
			return "", fmt.Errorf("the second throwaway key: %w", err)
		}
		if r.reg, err = r.newRegistry(ctx, b, stranger); err != nil {
			return "", err
		}
		if r.h1, err = zipHash(filepath.Join(b.dist, b.zipName)); err != nil {
			return "", err
		}
		stop, err := serveRegistry(r.reg, filepath.Join(r.dir, "ca.pem"))
		if err != nil {
			return "", err
		}
		r.closers = append(r.closers, stop)
		return fmt.Sprintf("https://%s, its certificate from a CA made for the run (SSL_CERT_FILE); "+
			"%s/%s is the release, %s, %s and %s broken copies", r.reg.host, genuine, providerType,
			tamperedZip, wrongSignature, unknownKey), nil
	})
}

// startFake serves the fake API that the quickstart applies against: its
// exports finish at once; the demo's agent job works for 3 seconds from
// now, long done by the time the first CLI applies.
func (r *rehearsal) startFake() error {
	return step("fake Mintlify API", func() (string, error) {
		fake, err := devprovider.StartAPI(
			fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{Pages: fakePages} }}),
		)
		if err != nil {
			return "", err
		}
		r.fake = fake
		r.closers = append(r.closers, fake.Close)
		return fake.URL, nil
	})
}

// checkSums verifies the signature with gpg and that SHA256SUMS lists the
// zip, its SBOM and the registry manifest with their hashes, and nothing
// else.
func (r *rehearsal) checkSums(ctx context.Context, b *releaseBuild) (string, error) {
	sums := filepath.Join(b.dist, b.sumsName)
	if err := r.key.verify(ctx, sums+".sig", sums); err != nil {
		return "", err
	}
	manifest, err := os.ReadFile(filepath.Join(b.clone, "terraform-registry-manifest.json"))
	if err != nil {
		return "", err
	}
	lines := sumsLines(b.sums)
	want := map[string][]byte{b.zipName: b.zip, b.sbomName: b.sbom, projectName + "_" + r.version + "_manifest.json": manifest}
	for name, content := range want {
		sum := sha256.Sum256(content)
		if lines[hex.EncodeToString(sum[:])] != name {
			return "", fmt.Errorf("%s does not list %s with its SHA-256:\n%s", b.sumsName, name, b.sums)
		}
	}
	if len(lines) != len(want) {
		return "", fmt.Errorf("%s lists other files than the zip, its SBOM and the manifest:\n%s", b.sumsName, b.sums)
	}
	return "gpg --verify passes; it lists the zip, its SBOM and the manifest with their SHA-256", nil
}

// zipHash is the h1: hash that Terraform records for a provider package:
// the Go module dirhash of the zip's contents.
func zipHash(zipFile string) (string, error) {
	return dirhash.HashZip(zipFile, dirhash.Hash1)
}

// cliEnv is the CLIs' environment: this one without Terraform's, TLS and
// the provider's variables, then an empty CLI configuration, the run's CA
// as the only trusted one, and the fake API for the provider.
func (r *rehearsal) cliEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "TF_") || strings.HasPrefix(name, "MINTLIFY_") || strings.HasPrefix(name, "SSL_CERT_") {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "TF_CLI_CONFIG_FILE="+r.cliRC, "SSL_CERT_FILE="+filepath.Join(r.dir, "ca.pem"),
		"CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
	return append(env, devprovider.Env(r.fake)...)
}
