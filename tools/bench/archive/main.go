//go:build linux

// Command archive is the benchmark behind `make bench-archive`: it downloads
// bundle archives of 100 MiB and 1 GiB over loopback, side by side in one
// run, with `curl -o` and with `terraform apply` of a
// mintlify_static_export_archive (the built provider as a real plugin,
// through dev_overrides), and checks its targets (report):
//
//   - the provider's download takes at most maxRatio times curl's, where
//     each is timed from the moment its request reaches the fake (the fake's
//     clock of arrival) to the moment the file is complete: curl's exit, and
//     the provider's rename of the verified archive into place (seen through
//     inotify). Terraform's own work around the apply (starting, planning,
//     writing state) is reported beside it but is not part of the ratio;
//   - it is faster than curl -o followed by the checks a user runs by hand
//     (sha256sum, md5sum, tar -tzf);
//   - the provider process's peak resident set (VmHWM from /proc, sampled
//     every 5 ms while terraform runs) stays under
//     benchreport.MaxProviderPeakRSS at both sizes.
//
// Both download the same job's archive, from fresh links of the in-repo
// fake API, which generates it while serving it (stored deflate blocks of
// incompressible data, so the fake costs little more than copying). Each
// size runs -runs times, alternating which of the two goes first; the table
// shows medians. It prints the figures and exits 1 when a target is missed.
// Linux only (inotify, /proc); not part of `make test`.
package main

import (
	"context"
	"crypto/md5" //nolint:gosec // measured, not used for security
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/archivefile"
	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/devprovider"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/tools/bench/benchreport"
)

// maxRatio is the target for the provider's download against curl's,
// checked in report; the memory target is benchreport.MaxProviderPeakRSS.
const maxRatio = 1.2

const mib = 1 << 20

func main() {
	runs := flag.Int("runs", 3, "downloads of each size by each of curl and the provider")
	flag.Parse()
	ok, err := run(*runs)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench-archive failed:", err)
		os.Exit(1)
	}
	if !ok {
		os.Exit(1)
	}
}

// bench holds what every measurement shares.
type bench struct {
	terraform devprovider.Runner // the CLI with the workspace's configuration and the fake's URL
	curl      string
	ws        *devprovider.Workspace
	fake      *arrivals
	client    *mintlify.Client
}

// result is one size's measurements.
type result struct {
	size           int64
	curl, provider []time.Duration
	// byHand is curl -o followed by what the user checks by hand today:
	// sha256sum, md5sum and tar -tzf of the file, one after the other.
	byHand               []time.Duration
	apply                []time.Duration
	peak                 int64
	providerSHA, curlSHA string
}

func run(runs int) (bool, error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	b := &bench{}
	terraform, err := devprovider.Terraform()
	if err != nil {
		return false, err
	}
	if b.curl, err = exec.LookPath("curl"); err != nil {
		return false, errors.New("curl is not on PATH; the benchmark compares the provider with it")
	}
	fmt.Println("==> Building the provider")
	if b.ws, err = devprovider.NewWorkspace(ctx, ".", "mintlify-bench-archive-", os.Stdout); err != nil {
		return false, err
	}
	defer func() { _ = b.ws.Close() }()
	sizes := []int64{100 * mib, 1024 * mib}
	fake := fakeapi.New(fakeapi.WithClock(clock.Real()),
		fakeapi.WithJobPlan(func(fakeapi.StartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{} }),
		fakeapi.WithArchive(func(req fakeapi.StartRequest) fakeapi.Archive {
			size, _ := strconv.ParseInt(strings.TrimSuffix(req.Domain, ".example.com")[len("size-"):], 10, 64)
			return fakeapi.Archive{Size: size}
		}))
	b.fake = &arrivals{next: fake, at: map[string]time.Time{}}
	url, closeFake, err := devprovider.Serve(b.fake)
	if err != nil {
		return false, err
	}
	defer func() { _ = closeFake() }()
	b.terraform = b.ws.Runner(terraform, "MINTLIFY_API_KEY="+fakeapi.DefaultAPIKey, "MINTLIFY_BASE_URL="+url)
	if b.client, err = mintlify.New(fakeapi.DefaultAPIKey, mintlify.WithBaseURL(url)); err != nil {
		return false, err
	}

	// The hash rates vary with the machine's load: the best of a measure
	// before and one after the downloads is the floor's honest estimate.
	md5Rate, shaRate := hashRates()
	var results []*result
	for _, size := range sizes {
		fmt.Printf("==> %s archive, %d runs each of curl and the provider\n", formatSize(size), runs)
		r, err := b.measure(ctx, size, runs)
		if err != nil {
			return false, err
		}
		results = append(results, r)
	}
	md5After, shaAfter := hashRates()
	return report(results, max(md5Rate, md5After), max(shaRate, shaAfter)), nil
}

// measure downloads one size's archive runs times with each tool.
func (b *bench) measure(ctx context.Context, size int64, runs int) (*result, error) {
	job, err := b.client.StartStaticExport(ctx, mintlify.StartStaticExportRequest{Domain: fmt.Sprintf("size-%d.example.com", size)})
	if err != nil {
		return nil, err
	}
	r := &result{size: size}
	for i := range runs {
		steps := []func() error{
			func() error { return b.curlOnce(ctx, job.JobID, r, i == 0) },
			func() error { return b.providerOnce(ctx, job.JobID, r, i) },
		}
		if i%2 == 1 {
			slices.Reverse(steps)
		}
		for _, step := range steps {
			if err := step(); err != nil {
				return nil, err
			}
		}
		fmt.Printf("  run %d: curl %s, provider %s (whole apply %s)\n", i+1, seconds(r.curl[i]), seconds(r.provider[i]), seconds(r.apply[i]))
	}
	if r.curlSHA != r.providerSHA {
		return nil, fmt.Errorf("the provider's archive (sha256 %s) differs from curl's (%s)", r.providerSHA, r.curlSHA)
	}
	return r, nil
}

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

// arrivals serves the fake and notes when each job's latest download
// request arrived.
type arrivals struct {
	next http.Handler
	mu   sync.Mutex
	at   map[string]time.Time
}

func (a *arrivals) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if rest, ok := strings.CutPrefix(r.URL.Path, "/bundles/"); ok {
		jobID, _, _ := strings.Cut(rest, "/")
		a.mu.Lock()
		a.at[jobID] = time.Now()
		a.mu.Unlock()
	}
	a.next.ServeHTTP(w, r)
}

func (a *arrivals) arrival(jobID string) time.Time {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.at[jobID]
}

// renameWatch sees, through inotify, the moment a file is renamed into a
// directory.
type renameWatch struct {
	file *os.File
	mu   sync.Mutex
	at   time.Time
	done chan struct{}
}

func watchRename(dir, name string) (*renameWatch, error) {
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC | syscall.IN_NONBLOCK)
	if err != nil {
		return nil, fmt.Errorf("inotify: %w", err)
	}
	if _, err := syscall.InotifyAddWatch(fd, dir, syscall.IN_MOVED_TO); err != nil {
		_ = syscall.Close(fd)
		return nil, fmt.Errorf("inotify on %s: %w", dir, err)
	}
	// Non-blocking, so the runtime poller reads it and Close unblocks Read.
	w := &renameWatch{file: os.NewFile(uintptr(fd), "inotify"), done: make(chan struct{})}
	go w.loop(name)
	return w, nil
}

func (w *renameWatch) loop(name string) {
	defer close(w.done)
	buf := make([]byte, 64<<10)
	for {
		n, err := w.file.Read(buf)
		if err != nil {
			return
		}
		at := time.Now()
		for off := 0; off+syscall.SizeofInotifyEvent <= n; {
			nameLen := int(binary.NativeEndian.Uint32(buf[off+12:]))
			start := off + syscall.SizeofInotifyEvent
			if strings.TrimRight(string(buf[start:start+nameLen]), "\x00") == name {
				w.mu.Lock()
				if w.at.IsZero() {
					w.at = at
				}
				w.mu.Unlock()
			}
			off = start + nameLen
		}
	}
}

func (w *renameWatch) renamed() (time.Time, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.at, !w.at.IsZero()
}

func (w *renameWatch) close() {
	_ = w.file.Close()
	<-w.done
}

// hashRates measures, for context, how fast one core of this machine
// computes the two hashes every download needs, in MiB/s.
func hashRates() (md5Rate, shaRate float64) {
	buf := make([]byte, 256*mib)
	rate := func(w io.Writer) float64 {
		began := time.Now()
		_, _ = w.Write(buf)
		return float64(len(buf)) / mib / time.Since(began).Seconds()
	}
	return rate(md5.New()), rate(sha256.New()) //nolint:gosec
}

// report prints the table and the verdict, and says whether every target
// was met.
func report(results []*result, md5Rate, shaRate float64) bool {
	fmt.Println()
	fmt.Println("Bundle archive download over loopback, medians: curl -o vs terraform apply of mintlify_static_export_archive")
	fmt.Printf("%-9s %9s %9s %7s %15s %7s %18s %12s %10s\n", "archive", "curl -o", "provider", "ratio",
		"curl + checks", "ratio", "provider peak RSS", "whole apply", "MD5 alone")
	for _, r := range results {
		fmt.Printf("%-9s %9s %9s %6.2f× %15s %6.2f× %14.1f MiB %12s %10s\n", formatSize(r.size),
			seconds(benchreport.Median(r.curl)), seconds(benchreport.Median(r.provider)), r.ratio(),
			seconds(benchreport.Median(r.byHand)), r.byHandRatio(), float64(r.peak)/mib,
			seconds(benchreport.Median(r.apply)), seconds(time.Duration(float64(r.size)/mib/md5Rate*float64(time.Second))))
	}
	fmt.Println("curl -o, provider: from the download request reaching the fake to the complete file (curl's exit; the")
	fmt.Println("  provider's rename of the verified archive into place). whole apply: the `terraform apply` command.")
	fmt.Println("curl + checks: curl -o, then what is done by hand to get the same facts: sha256sum, md5sum, tar -tzf.")
	fmt.Printf("MD5 alone: the archive's MD5 on one core of this machine, at the best rate measured before and after the\n"+
		"  downloads (%.0f MiB/s; SHA-256 %.0f MiB/s). The provider computes MD5 and SHA-256 while it writes and\n"+
		"  checks the archive, side by side; curl computes neither, so the provider cannot be faster than MD5 alone.\n\n",
		md5Rate, shaRate)

	v := benchreport.NewVerdict(os.Stdout)
	for _, r := range results {
		v.Check(r.ratio() <= maxRatio, "%s: provider at most %.1f× curl -o: %.2f×", formatSize(r.size), maxRatio, r.ratio())
		v.Check(r.byHandRatio() < 1, "%s: provider faster than curl -o with sha256sum, md5sum and tar -tzf: %.2f×",
			formatSize(r.size), r.byHandRatio())
		v.Check(r.peak > 0 && r.peak < benchreport.MaxProviderPeakRSS, "%s: provider peak RSS under %d MiB: %.1f MiB",
			formatSize(r.size), benchreport.MaxProviderPeakRSS/mib, float64(r.peak)/mib)
	}
	return !v.Failed()
}

func (r *result) ratio() float64 {
	return benchreport.Median(r.provider).Seconds() / benchreport.Median(r.curl).Seconds()
}

func (r *result) byHandRatio() float64 {
	return benchreport.Median(r.provider).Seconds() / benchreport.Median(r.byHand).Seconds()
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }

func formatSize(n int64) string {
	if n >= 1024*mib {
		return fmt.Sprintf("%g GiB", float64(n)/(1024*mib))
	}
	return fmt.Sprintf("%g MiB", float64(n)/mib)
}
