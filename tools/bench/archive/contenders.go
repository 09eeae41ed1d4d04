//go:build linux

package main

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/archivefile"
	"github.com/mintlify/terraform-provider-mintlify/internal/devprovider"
)

// curlOnce runs `curl -o` on a fresh link, timed from the request's
// arrival to curl's exit. The first run also hashes the file.
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
	sha, err := b.terraform.Output(ctx, dir, "sha256")
	if err != nil {
		return err
	}
	r.providerSHA = sha
	return nil
}
