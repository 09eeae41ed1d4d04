//go:build linux

package main

import (
	"context"
	"crypto/md5" //nolint:gosec // measured, not used for security
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/archivefile"
	"github.com/mintlify/terraform-provider-mintlify/internal/devprovider"
)

// curlOnce runs `curl -o` on a fresh link, timed from the request's
// arrival to curl's exit, then the checks done by hand. The first run also
// hashes the file.
func (b *bench) curlOnce(ctx context.Context, jobID string, r *result, hash bool) error {
	bundle, err := b.client.GenerateBundle(ctx, jobID)
	if err != nil {
		return err
	}
	out := filepath.Join(b.ws.Dir, "curl", "bundle.tar.gz")
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	defer func() { _ = os.Remove(out) }()
	cmd := exec.CommandContext(ctx, b.curl, "-fsS", "-o", out, bundle.BundleURL)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("curl: %v: %s", err, msg) // curl's message never holds the link
	}
	done := time.Now()
	r.curl = append(r.curl, done.Sub(b.fake.arrival(jobID)))
	for _, check := range [][]string{{"sha256sum", out}, {"md5sum", out}, {"tar", "-tzf", out}} {
		if msg, err := exec.CommandContext(ctx, check[0], check[1:]...).CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %v: %s", check[0], err, msg)
		}
	}
	r.byHand = append(r.byHand, time.Since(done)+r.curl[len(r.curl)-1])
	if hash {
		sum, _, err := archivefile.HashFile(out)
		if err != nil {
			return err
		}
		r.curlSHA = hex.EncodeToString(sum[:])
	}
	return nil
}

// pipeOnce runs the floor's pipeline on a fresh link, timed from the
// request's arrival to the pipeline's end.
func (b *bench) pipeOnce(ctx context.Context, jobID, hasher string) (time.Duration, error) {
	bundle, err := b.client.GenerateBundle(ctx, jobID)
	if err != nil {
		return 0, err
	}
	if err := pipeline(ctx, bundle.BundleURL, filepath.Join(b.ws.Dir, "pipe", "bundle.tar.gz"), hasher); err != nil {
		return 0, err
	}
	return time.Since(b.fake.arrival(jobID)), nil
}

// pipeline is the floor: curl downloads link, tee writes the file out and
// hasher (md5sum or sha256sum) hashes the same bytes, the work the provider
// cannot do without. The file is removed after.
func pipeline(ctx context.Context, link, out, hasher string) error {
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	defer func() { _ = os.Remove(out) }()
	// The link and the file are arguments of the script, never part of it.
	script := `set -o pipefail; curl -fsS "$1" | tee "$2" | ` + hasher + ` >/dev/null`
	cmd := exec.CommandContext(ctx, "bash", "-c", script, "floor", link, out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("curl | tee | %s: %v: %s", hasher, err, msg) // curl's message never holds the link
	}
	return nil
}

// md5Once downloads a fresh link and computes the archive's MD5 as it
// arrives, nothing else, timed from the request's arrival to the hash's
// last byte.
func (b *bench) md5Once(ctx context.Context, jobID string, r *result) error {
	bundle, err := b.client.GenerateBundle(ctx, jobID)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, bundle.BundleURL, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept-Encoding", "identity") // as the provider asks
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("MD5 alone: %w", errors.Unwrap(err)) // the *url.Error would quote the link
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("MD5 alone: the download answered %s", resp.Status)
	}
	h := md5.New() //nolint:gosec // measured, not used for security
	if _, err := io.CopyBuffer(h, resp.Body, make([]byte, 512<<10)); err != nil {
		return fmt.Errorf("MD5 alone: reading the archive: %w", err)
	}
	r.md5 = append(r.md5, time.Since(b.fake.arrival(jobID)))
	r.aloneMD5 = hex.EncodeToString(h.Sum(nil))
	return nil
}

// providerOnce runs `terraform apply` of an archive resource in a fresh
// directory, timed from the download request's arrival to the rename of the
// archive into place.
func (b *bench) providerOnce(ctx context.Context, jobID string, r *result, i int) error {
	dir := filepath.Join(b.ws.Dir, fmt.Sprintf("apply-%d-%d", r.size, i))
	outDir := filepath.Join(dir, "build")
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(dir) }()
	config := fmt.Sprintf(`terraform {
  required_providers {
    mintlify = { source = "mintlify/mintlify" }
  }
}

resource "mintlify_static_export_archive" "bench" {
  job_id      = %q
  output_path = "${path.module}/build/docs-bundle.tar.gz"
}

output "sha256" {
  value = mintlify_static_export_archive.bench.sha256
}

output "md5" {
  value = mintlify_static_export_archive.bench.md5
}
`, jobID)
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o600); err != nil {
		return err
	}
	watch, err := watchRename(outDir, "docs-bundle.tar.gz")
	if err != nil {
		return err
	}
	defer watch.close()
	sampler := devprovider.SampleMemory(b.ws.Binary)
	began := time.Now()
	applyErr := b.terraform.Run(ctx, dir, "apply", "-auto-approve", "-input=false", "-no-color")
	r.apply = append(r.apply, time.Since(began))
	r.peak = max(r.peak, sampler.Stop())
	if applyErr != nil {
		return applyErr
	}
	renamed, ok := watch.renamed()
	if !ok {
		return errors.New("the apply succeeded but the archive was never renamed into place")
	}
	r.provider = append(r.provider, renamed.Sub(b.fake.arrival(jobID)))
	if r.providerSHA, err = b.terraform.Output(ctx, dir, "sha256"); err != nil {
		return err
	}
	r.providerMD5, err = b.terraform.Output(ctx, dir, "md5")
	return err
}
