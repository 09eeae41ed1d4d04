//go:build linux

// Command archive is the benchmark behind `make bench-archive`: it downloads
// bundle archives of 100 MiB and 1 GiB over loopback, side by side in one
// run, in these ways:
//
//   - the floor: a pipeline of standard tools that does the work the
//     provider cannot do without, download, write and hash the same bytes,
//     `curl -s URL | tee FILE | md5sum`, and the same with sha256sum (the
//     provider computes both hashes); the slower of the two is the floor;
//   - MD5 alone, a download that computes the archive's MD5 and writes
//     nothing (Go's crypto/md5, as the provider), printed beside it;
//   - `curl -o`, followed by what a user checks by hand (sha256sum, md5sum,
//     tar -tzf);
//   - `terraform apply` of a mintlify_static_export_archive (the built
//     provider as a real plugin, through dev_overrides).
//
// Each is timed from the moment its request reaches the fake (the fake's
// clock of arrival) to the moment it is done: the pipeline's or curl's
// exit, the hash's last byte, and the provider's rename of the verified
// archive into place (seen through inotify). Terraform's own work around
// the apply (starting, planning, writing state) is reported beside it but
// is not part of the download.
//
// It also measures a ZIP bundle (the next contract's format) of each size,
// through internal/archivefile beside MD5 alone (zip.go); -zip-only
// measures only that, without Terraform.
//
// Its targets (checked in report):
//
//   - the provider's download takes at most maxFloorRatio times the floor:
//     the SHA-256 and MD5 it computes in one pass, and the gzip+tar check,
//     run beside what the pipeline does, and add at most that;
//   - it is faster than curl -o followed by the checks by hand;
//   - the provider process's peak resident set (VmHWM from /proc, sampled
//     every 5 ms while terraform runs) stays under
//     benchreport.MaxProviderPeakRSS at both sizes.
//
// The ratios to MD5 alone and to curl -o are printed, not judged: neither
// writes the file and hashes it as the provider must.
//
// All download the same job's archive, from fresh links of the in-repo
// fake API, which generates it while serving it (stored deflate blocks of
// incompressible data, so the fake costs little more than copying). Each
// size runs -runs times, rotating which goes first; the table shows
// medians. It prints the figures and the load average, and exits 1 when a
// target is missed. Linux only (inotify, /proc); not part of `make test`.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/devprovider"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// maxFloorRatio is the target for the provider's download against the
// floor (curl | tee | md5sum or sha256sum), checked in report; the memory
// target is benchreport.MaxProviderPeakRSS.
const maxFloorRatio = 1.15

const mib = 1 << 20

func main() {
	runs := flag.Int("runs", 5, "downloads of each size by each of curl, MD5 alone and the provider")
	zipOnly := flag.Bool("zip-only", false, "measure the ZIP downloads through internal/archivefile only (no Terraform)")
	flag.Parse()
	ok, err := run(*runs, *zipOnly)
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
	terraform devprovider.Commands // the CLI with the workspace's configuration and the fake's URL
	curl      string
	ws        *devprovider.Workspace
	fake      *arrivals
	client    *mintlify.Client
}

// result is one size's measurements.
type result struct {
	size                int64
	curl, md5, provider []time.Duration
	// pipeMD5 and pipeSHA are the floor's pipelines: curl | tee | md5sum,
	// and the same with sha256sum.
	pipeMD5, pipeSHA []time.Duration
	// byHand is curl -o followed by what the user checks by hand today:
	// sha256sum, md5sum and tar -tzf of the file, one after the other.
	byHand []time.Duration
	apply  []time.Duration
	peak   int64
	// The archive's hashes as each saw them: all must agree.
	providerSHA, curlSHA, providerMD5, aloneMD5 string
}

func run(runs int, zipOnly bool) (bool, error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	sizes := []int64{100 * mib, 1024 * mib}
	if zipOnly {
		return runZips(ctx, sizes, runs)
	}
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
	fake := fakeapi.New(fakeapi.WithClock(clock.Real()),
		fakeapi.WithStaticExport(fakeapi.StaticExportOptions{
			Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{} },
			Archive: func(req fakeapi.StartRequest) fakeapi.Archive {
				size, _ := strconv.ParseInt(strings.TrimSuffix(req.Domain, ".example.com")[len("size-"):], 10, 64)
				return fakeapi.Archive{Size: size}
			},
		}))
	b.fake = &arrivals{next: fake, at: map[string]time.Time{}}
	served, err := fakeapi.Serve(fake, b.fake)
	if err != nil {
		return false, err
	}
	defer func() { _ = served.Close() }()
	url := served.URL
	b.terraform = b.ws.Commands(terraform, "MINTLIFY_API_KEY="+fakeapi.DefaultAPIKey, "MINTLIFY_BASE_URL="+url)
	if b.client, err = mintlify.New(fakeapi.DefaultAPIKey, mintlify.WithBaseURL(url)); err != nil {
		return false, err
	}

	loadBefore := loadAverage()
	var results []*result
	for _, size := range sizes {
		fmt.Printf("==> %s archive, %d runs each of the two pipelines, curl, MD5 alone and the provider\n", formatSize(size), runs)
		r, err := b.measure(ctx, size, runs)
		if err != nil {
			return false, err
		}
		results = append(results, r)
	}
	zips, err := measureZips(ctx, b.ws.Dir, sizes, runs)
	if err != nil {
		return false, err
	}
	return report(results, zips, loadBefore, loadAverage()), nil
}

// runZips measures the ZIP downloads only, in a temporary directory.
func runZips(ctx context.Context, sizes []int64, runs int) (bool, error) {
	dir, err := os.MkdirTemp("", "mintlify-bench-archive-zip-")
	if err != nil {
		return false, err
	}
	defer func() { _ = os.RemoveAll(dir) }()
	loadBefore := loadAverage()
	zips, err := measureZips(ctx, dir, sizes, runs)
	if err != nil {
		return false, err
	}
	return report(nil, zips, loadBefore, loadAverage()), nil
}

// measure downloads one size's archive runs times with each contender,
// rotating which goes first.
func (b *bench) measure(ctx context.Context, size int64, runs int) (*result, error) {
	job, err := b.client.StartStaticExport(ctx, mintlify.StartStaticExportRequest{Domain: fmt.Sprintf("size-%d.example.com", size)})
	if err != nil {
		return nil, err
	}
	r := &result{size: size}
	for i := range runs {
		pipe := func(hasher string, into *[]time.Duration) func() error {
			return func() error {
				d, err := b.pipeOnce(ctx, job.JobID, hasher)
				*into = append(*into, d)
				return err
			}
		}
		steps := []func() error{
			pipe("md5sum", &r.pipeMD5),
			pipe("sha256sum", &r.pipeSHA),
			func() error { return b.curlOnce(ctx, job.JobID, r, i == 0) },
			func() error { return b.md5Once(ctx, job.JobID, r) },
			func() error { return b.providerOnce(ctx, job.JobID, r, i) },
		}
		for k := range steps {
			if err := steps[(i+k)%len(steps)](); err != nil {
				return nil, err
			}
		}
		fmt.Printf("  run %d: curl|tee|md5sum %s, curl|tee|sha256sum %s, curl %s, MD5 alone %s, provider %s (whole apply %s)\n",
			i+1, seconds(r.pipeMD5[i]), seconds(r.pipeSHA[i]), seconds(r.curl[i]), seconds(r.md5[i]), seconds(r.provider[i]),
			seconds(r.apply[i]))
	}
	if r.curlSHA != r.providerSHA {
		return nil, fmt.Errorf("the provider's archive (sha256 %s) differs from curl's (%s)", r.providerSHA, r.curlSHA)
	}
	if r.aloneMD5 != r.providerMD5 {
		return nil, fmt.Errorf("the provider's md5 (%s) differs from MD5 alone's (%s)", r.providerMD5, r.aloneMD5)
	}
	return r, nil
}

// loadAverage is the system's load average over 1, 5 and 15 minutes, as
// /proc/loadavg gives it.
func loadAverage() string {
	raw, err := os.ReadFile("/proc/loadavg")
	if fields := strings.Fields(string(raw)); err == nil && len(fields) >= 3 {
		return strings.Join(fields[:3], " ")
	}
	return "unknown"
}
