//go:build linux

package main

import (
	"archive/zip"
	"compress/flate"
	"context"
	"crypto/md5" //nolint:gosec // measured, not used for security
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/archivefile"
	"github.com/mintlify/terraform-provider-mintlify/tools/bench/benchreport"
)

// The ZIP part of the benchmark: the next contract's bundles are ZIPs,
// which the provider cannot yet download (nor the fake serve), so it
// measures the provider's download to disk itself, internal/archivefile
// (writing the file, SHA-256, MD5 and the ZIP check, then the rename),
// beside MD5 alone over the same bytes, both reading the same ZIP from a
// loopback server, timed from the request to the end (the rename, the last
// byte hashed). The ZIP holds a page and 1 MiB assets of incompressible
// data, deflated in stored blocks, as Go's archive/zip writes them (data
// descriptors).

// zipResult is one size's measurements.
type zipResult struct {
	size      int64
	md5, file []time.Duration
	entries   int
}

func (r *zipResult) ratio() float64 {
	return benchreport.Median(r.file).Seconds() / benchreport.Median(r.md5).Seconds()
}

// measureZips measures each size runs times, alternating which goes
// first.
func measureZips(ctx context.Context, dir string, sizes []int64, runs int) ([]*zipResult, error) {
	var results []*zipResult
	for _, size := range sizes {
		fmt.Printf("==> %s ZIP, %d runs each of MD5 alone and internal/archivefile\n", formatSize(size), runs)
		path := filepath.Join(dir, "export.zip")
		if err := writeZip(path, size); err != nil {
			return nil, err
		}
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, path) }))
		r := &zipResult{size: size}
		var err error
		for i := 0; i < runs && err == nil; i++ {
			steps := []func() error{
				func() error { return zipMD5Once(ctx, srv.URL, r) },
				func() error { return zipFileOnce(ctx, srv.URL, filepath.Join(dir, "out", "export.zip"), r) },
			}
			for k := range steps {
				if err == nil {
					err = steps[(i+k)%len(steps)]()
				}
			}
			if err == nil {
				fmt.Printf("  run %d: MD5 alone %s, archivefile %s\n", i+1, seconds(r.md5[i]), seconds(r.file[i]))
			}
		}
		srv.Close()
		_ = os.Remove(path)
		if err != nil {
			return nil, err
		}
		results = append(results, r)
	}
	return results, nil
}

// writeZip writes a ZIP of about size bytes to path.
func writeZip(path string, size int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }()
	w := zip.NewWriter(f)
	w.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(out, flate.NoCompression)
	})
	blob := make([]byte, mib)
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := range blob {
		blob[i] = byte(rnd.Uint32())
	}
	page, err := w.Create("index.html")
	if err == nil {
		_, err = page.Write([]byte("<h1>Docs</h1>"))
	}
	for i := 0; err == nil && int64(i+1)*(mib+100) < size; i++ {
		var asset io.Writer
		if asset, err = w.Create(fmt.Sprintf("assets/blob-%05d.bin", i)); err == nil {
			blob[0] = byte(i) // every asset its own
			_, err = asset.Write(blob)
		}
	}
	if err != nil {
		return err
	}
	return w.Close()
}

// get starts a download of url.
func get(ctx context.Context, url string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept-Encoding", "identity")
	resp, err := http.DefaultClient.Do(req)
	if err == nil && resp.StatusCode != http.StatusOK {
		_ = resp.Body.Close()
		err = errors.New("the ZIP server answered " + resp.Status)
	}
	return resp, err
}

// zipMD5Once hashes the ZIP as it arrives, nothing else.
func zipMD5Once(ctx context.Context, url string, r *zipResult) error {
	start := time.Now()
	resp, err := get(ctx, url)
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	if _, err := io.CopyBuffer(md5.New(), resp.Body, make([]byte, 512<<10)); err != nil { //nolint:gosec // see the import
		return err
	}
	r.md5 = append(r.md5, time.Since(start))
	return nil
}

// zipFileOnce downloads the ZIP through archivefile, as the provider does,
// to its rename into place.
func zipFileOnce(ctx context.Context, url, dest string, r *zipResult) error {
	start := time.Now()
	resp, err := get(ctx, url)
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	f, err := archivefile.Create(dest, archivefile.Options{})
	if err != nil {
		return err
	}
	if _, err := f.ReadFrom(resp.Body); err != nil {
		_ = f.Discard()
		return err
	}
	sum, _, err := f.Commit(func(archivefile.Identity) error { return nil })
	if err != nil {
		return err
	}
	r.file = append(r.file, time.Since(start))
	if sum.Format != archivefile.FormatZip {
		return fmt.Errorf("archivefile read the ZIP as %q", sum.Format)
	}
	r.entries = sum.Entries
	return os.Remove(dest)
}

// printZips prints the ZIP table.
func printZips(results []*zipResult) {
	if len(results) == 0 {
		return
	}
	fmt.Println("ZIP bundle download over loopback through internal/archivefile (the provider's download, without Terraform), medians")
	fmt.Printf("%-9s %8s %10s %12s %8s\n", "archive", "entries", "MD5 alone", "archivefile", "vs MD5")
	for _, r := range results {
		fmt.Printf("%-9s %8d %10s %12s %7.2f×\n", formatSize(r.size), r.entries, seconds(benchreport.Median(r.md5)),
			seconds(benchreport.Median(r.file)), r.ratio())
	}
	fmt.Println("archivefile: from the request to the rename of the verified ZIP: writing, SHA-256, MD5 and the ZIP check")
	fmt.Println("  (inflating and CRC-32 of every entry) beside one another.")
	fmt.Println()
}

// checkZips adds the ZIP targets to v.
func checkZips(results []*zipResult, v *benchreport.Verdict) {
	for _, r := range results {
		v.Check(r.ratio() <= maxMD5Ratio, "%s ZIP: archivefile at most %.2f× MD5 alone: %.2f×", formatSize(r.size), maxMD5Ratio, r.ratio())
	}
}
