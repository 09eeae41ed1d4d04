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
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/devprovider"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
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
