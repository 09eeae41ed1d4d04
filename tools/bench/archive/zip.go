//go:build linux

package main

import (
	"archive/tar"
	"archive/zip"
	"compress/flate"
	"compress/gzip"
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

// The ZIP part of the benchmark: the next contract's bundles are ZIPs. It
// measures the provider's download to disk itself, internal/archivefile
// (writing the file, SHA-256, MD5 and the ZIP check, then the rename),
// beside the floor's pipelines and MD5 alone over the same bytes, all
// reading the same ZIP from a loopback server, timed from the request to
// the end (the rename, the pipeline's exit, the last byte hashed); and, for
// comparison under the same load, a tar.gz of the same content through
// internal/archivefile. The archives hold a page and
// 1 MiB assets of incompressible data, deflated in stored blocks (the ZIP
// as Go's archive/zip writes it, with data descriptors).

// zipResult is one size's measurements.
type zipResult struct {
	size           int64
	md5, file, tgz []time.Duration
	// pipeMD5 and pipeSHA are the floor's pipelines over the ZIP.
	pipeMD5, pipeSHA []time.Duration
	entries          int
}

// floorRatio is archivefile's ZIP download against the slower pipeline.
func (r *zipResult) floorRatio() float64 {
	floor := max(benchreport.Median(r.pipeMD5), benchreport.Median(r.pipeSHA))
	return benchreport.Median(r.file).Seconds() / floor.Seconds()
}

// md5Ratio is archivefile's ZIP download against MD5 alone.
func (r *zipResult) md5Ratio() float64 {
	return benchreport.Median(r.file).Seconds() / benchreport.Median(r.md5).Seconds()
}

// measureZips measures each size runs times, alternating which goes
// first.
func measureZips(ctx context.Context, dir string, sizes []int64, runs int) ([]*zipResult, error) {
	var results []*zipResult
	for _, size := range sizes {
		fmt.Printf("==> %s ZIP, %d runs each of the two pipelines, MD5 alone and internal/archivefile\n", formatSize(size), runs)
		path, tgzPath := filepath.Join(dir, "export.zip"), filepath.Join(dir, "export.tar.gz")
		if err := writeArchives(path, tgzPath, size); err != nil {
			return nil, err
		}
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.ServeFile(w, r, filepath.Join(dir, filepath.Base(r.URL.Path)))
		}))
		r := &zipResult{size: size}
		var err error
		for i := 0; i < runs && err == nil; i++ {
			pipe := func(hasher string, into *[]time.Duration) func() error {
				return func() error {
					start := time.Now()
					err := pipeline(ctx, srv.URL+"/export.zip", filepath.Join(dir, "pipe", "export.zip"), hasher)
					*into = append(*into, time.Since(start))
					return err
				}
			}
			steps := []func() error{
				pipe("md5sum", &r.pipeMD5),
				pipe("sha256sum", &r.pipeSHA),
				func() error { return zipMD5Once(ctx, srv.URL+"/export.zip", r) },
				func() error {
					return fileOnce(ctx, srv.URL+"/export.zip", filepath.Join(dir, "out", "export.zip"), archivefile.FormatZip, r)
				},
				func() error {
					return fileOnce(ctx, srv.URL+"/export.tar.gz", filepath.Join(dir, "out", "export.tar.gz"), archivefile.FormatTarGz, r)
				},
			}
			for k := range steps {
				if err == nil {
					err = steps[(i+k)%len(steps)]()
				}
			}
			if err == nil {
				fmt.Printf("  run %d: curl|tee|md5sum %s, curl|tee|sha256sum %s, MD5 alone %s, archivefile ZIP %s, "+
					"archivefile tar.gz %s\n", i+1, seconds(r.pipeMD5[i]), seconds(r.pipeSHA[i]), seconds(r.md5[i]),
					seconds(r.file[i]), seconds(r.tgz[i]))
			}
		}
		srv.Close()
		_, _ = os.Remove(path), os.Remove(tgzPath)
		if err != nil {
			return nil, err
		}
		results = append(results, r)
	}
	return results, nil
}

// writeArchives writes a ZIP of about size bytes to zipPath, and a tar.gz
// of the same entries to tgzPath.
func writeArchives(zipPath, tgzPath string, size int64) error {
	zf, err := os.Create(zipPath)
	if err != nil {
		return err
	}
	defer func() { _ = zf.Close() }()
	tf, err := os.Create(tgzPath)
	if err != nil {
		return err
	}
	defer func() { _ = tf.Close() }()
	zw := zip.NewWriter(zf)
	zw.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(out, flate.NoCompression)
	})
	gw, _ := gzip.NewWriterLevel(tf, gzip.NoCompression)
	tw := tar.NewWriter(gw)
	add := func(name string, data []byte) error {
		h := &zip.FileHeader{Name: name, Method: zip.Deflate}
		h.SetMode(0o644) // made on Unix, with a mode, as the archive check requires
		w, err := zw.CreateHeader(h)
		if err == nil {
			_, err = w.Write(data)
		}
		if err == nil {
			err = tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg, Format: tar.FormatUSTAR})
		}
		if err == nil {
			_, err = tw.Write(data)
		}
		return err
	}
	blob := make([]byte, mib)
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := range blob {
		blob[i] = byte(rnd.Uint32())
	}
	err = add("index.html", []byte("<h1>Docs</h1>"))
	for i := 0; err == nil && int64(i+1)*(mib+100) < size; i++ {
		blob[0] = byte(i) // every asset its own
		err = add(fmt.Sprintf("assets/blob-%05d.bin", i), blob)
	}
	for _, c := range []io.Closer{zw, tw, gw} {
		if err == nil {
			err = c.Close()
		}
	}
	return err
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

// fileOnce downloads an archive through archivefile, as the provider
// does, to its rename into place.
func fileOnce(ctx context.Context, url, dest, format string, r *zipResult) error {
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
	took := time.Since(start)
	switch {
	case sum.Format != format:
		return fmt.Errorf("archivefile read the %s as %q", format, sum.Format)
	case format == archivefile.FormatZip:
		r.file, r.entries = append(r.file, took), sum.Entries
	default:
		r.tgz = append(r.tgz, took)
	}
	return os.Remove(dest)
}

// printZips prints the ZIP table.
func printZips(results []*zipResult) {
	if len(results) == 0 {
		return
	}
	fmt.Println("ZIP bundle download over loopback through internal/archivefile (the provider's download, without Terraform), medians")
	fmt.Printf("%-9s %8s %12s %14s %10s %16s %9s %8s %19s %12s\n", "archive", "entries", "|tee|md5sum", "|tee|sha256sum",
		"MD5 alone", "archivefile ZIP", "vs floor", "vs MD5", "archivefile tar.gz", "ZIP vs tar.gz")
	for _, r := range results {
		zipTime, tgzTime := benchreport.Median(r.file), benchreport.Median(r.tgz)
		fmt.Printf("%-9s %8d %12s %14s %10s %16s %8.2f× %7.2f× %19s %11.2f×\n", formatSize(r.size), r.entries,
			seconds(benchreport.Median(r.pipeMD5)), seconds(benchreport.Median(r.pipeSHA)), seconds(benchreport.Median(r.md5)),
			seconds(zipTime), r.floorRatio(), r.md5Ratio(), seconds(tgzTime), zipTime.Seconds()/tgzTime.Seconds())
	}
	fmt.Println("archivefile: from the request to the rename of the verified archive: writing, SHA-256, MD5 and the check")
	fmt.Println("  (inflating and CRC-32 of every entry) beside one another; tar.gz: the same content, for comparison.")
	fmt.Println()
}

// checkZips adds the ZIP targets to v.
func checkZips(results []*zipResult, v *benchreport.Verdict) {
	for _, r := range results {
		v.Check(r.floorRatio() <= maxFloorRatio, "%s ZIP: archivefile at most %.2f× the floor (curl | tee | the slower hash): %.2f×",
			formatSize(r.size), maxFloorRatio, r.floorRatio())
	}
}
