package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/devprovider"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify/poll"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/staticexport"
	"github.com/mintlify/terraform-provider-mintlify/tools/bench/benchreport"
)

// Single exports: how many of each length the provider applies, and how
// many twins the fixed loop polls, at phases spread over its interval.
const (
	providerJobs = 5
	loopTwins    = 10
)

// singleLengths are the lengths of the single exports, queue included.
var singleLengths = []time.Duration{20 * time.Second, 90 * time.Second}

// singleExports applies five 20 s and five 90 s exports in one apply, while
// a fixed 10 s loop polls ten twins of each. A real job's length is no
// multiple of 10 s, so the twins start polling at phases spread over the
// loop's interval (0.5 s to 9.5 s after the job starts); the loop's
// latency then averages half its interval, as it does in the field.
func (b *bench) singleExports(ctx context.Context) (*part, error) {
	const queue = 2 * time.Second
	plans := &jobPlans{}
	config := providerBlock
	for _, l := range singleLengths {
		plan := fakeapi.JobPlan{QueueFor: queue, RunFor: l - queue, Pages: 240}
		for i := range providerJobs {
			plans.set(domainFor(fmt.Sprint("tf", i), l), plan)
			config += bundleBlock(fmt.Sprintf("job_%s_%d", benchreport.ShortDuration(l), i), domainFor(fmt.Sprint("tf", i), l))
		}
		for i := range loopTwins {
			plans.set(domainFor(fmt.Sprint("loop", i), l), plan)
		}
	}
	fake, err := devprovider.StartAPI(fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: plans.get}))
	if err != nil {
		return nil, err
	}
	defer func() { _ = fake.Close() }()
	dir, err := b.workdir("single", config)
	if err != nil {
		return nil, err
	}
	twins, err := pollTwins(ctx, fake.URL)
	if err != nil {
		return nil, err
	}
	logPath := filepath.Join(b.ws.Dir, "single-apply.log")
	applyErr := b.terraform(append(devprovider.Env(fake), "TF_LOG_PROVIDER=INFO", "TF_LOG_PATH="+logPath)...).Run(ctx, dir,
		"apply", "-auto-approve", "-input=false", "-no-color")
	if err := errors.Join(applyErr, twins()); err != nil {
		return nil, err
	}
	progressLines, err := countProgressLines(logPath)
	if err != nil {
		return nil, err
	}
	return reportSingle(statsByJob(fake.Fake.Requests()), progressLines)
}

// pollTwins starts the loop's twin exports and polls each one, from its
// phase, with the client and Mintlify's fixed 10-second interval. The
// function it returns waits for them all.
func pollTwins(ctx context.Context, url string) (func() error, error) {
	loop, err := mintlify.New(fakeapi.DefaultAPIKey, mintlify.WithBaseURL(url),
		mintlify.WithPollPolicy(poll.Exponential{Initial: 10 * time.Second, Max: 10 * time.Second, Multiplier: 1}))
	if err != nil {
		return nil, err
	}
	var wg sync.WaitGroup
	errs := make([]error, len(singleLengths)*loopTwins)
	for li, l := range singleLengths {
		for i := range loopTwins {
			wg.Go(func() {
				job, err := loop.StartStaticExport(ctx, mintlify.StartStaticExportRequest{Domain: domainFor(fmt.Sprint("loop", i), l)})
				if err == nil {
					err = waitFromPhase(ctx, loop, job.JobID, time.Duration(i)*time.Second+500*time.Millisecond)
				}
				errs[li*loopTwins+i] = err
			})
		}
	}
	return func() error { wg.Wait(); return errors.Join(errs...) }, nil
}

// waitFromPhase waits phase, then for the job.
func waitFromPhase(ctx context.Context, c *mintlify.Client, jobID string, phase time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(phase):
	}
	_, err := c.WaitForStaticExport(ctx, jobID)
	return err
}

// lateness is how late a group of jobs was noticed complete, and what it
// cost.
type lateness struct {
	mean, worst time.Duration
	requests    float64 // status requests per job
	lines       int     // progress log lines
	changes     int     // status answers that changed something
}

// summarize averages the n jobs of one prefix and length.
func summarize(stats map[string]*jobStats, progressLines map[string]int, prefix string, n int, l time.Duration) (lateness, error) {
	var r lateness
	for id, s := range stats {
		if !isOneOf(s.domain, prefix, n, l) {
			continue
		}
		if s.completed.IsZero() {
			return r, fmt.Errorf("job %s never showed completed", id)
		}
		late := s.completed.Sub(s.created.Add(l))
		r.mean += late / time.Duration(n)
		r.worst = max(r.worst, late)
		r.requests += float64(s.requests) / float64(n)
		r.lines += progressLines[id]
		r.changes += s.changes
	}
	return r, nil
}

// reportSingle reports the single exports: the provider's jobs beside the
// loop's twins, and the progress log lines.
func reportSingle(stats map[string]*jobStats, progressLines map[string]int) (*part, error) {
	p := &part{}
	p.printf("\nSingle exports: %d of each length in one terraform apply; a fixed 10 s loop polls %d twins of each.\n",
		providerJobs, loopTwins)
	p.printf("  %-6s  %-40s  %-40s\n", "job", "provider: late by mean (max), requests", "fixed 10 s loop: late by mean (max), requests")
	var logCheck []string
	for _, l := range singleLengths {
		tf, err := summarize(stats, progressLines, "tf", providerJobs, l)
		if err != nil {
			return p, err
		}
		lp, err := summarize(stats, progressLines, "loop", loopTwins, l)
		if err != nil {
			return p, err
		}
		name := benchreport.ShortDuration(l)
		p.printf("  %-6s  %-40s  %-40s\n", name,
			fmt.Sprintf("%.2f s (%.2f s), %.1f", tf.mean.Seconds(), tf.worst.Seconds(), tf.requests),
			fmt.Sprintf("%.2f s (%.2f s), %.1f", lp.mean.Seconds(), lp.worst.Seconds(), lp.requests))
		logCheck = append(logCheck, fmt.Sprintf("%d lines for the %d answers that changed something (%s jobs)", tf.lines, tf.changes, name))
		p.check(tf.mean < maxNoticeMean && tf.mean < lp.mean,
			"%s exports noticed complete within %s on average, sooner than the fixed 10 s loop: %.2f s (the loop: %.2f s)",
			name, maxNoticeMean, tf.mean.Seconds(), lp.mean.Seconds())
		p.check(tf.lines == tf.changes, "TF_LOG=INFO shows one progress line per status answer that changed something (%s jobs): %d lines, %d answers",
			name, tf.lines, tf.changes)
	}
	p.printf("  %q at TF_LOG=INFO: %s\n", staticexport.LogExportProgress, strings.Join(logCheck, "; "))
	return p, nil
}

// isOneOf reports whether domain is that of one of the n jobs of prefix and
// length l.
func isOneOf(domain, prefix string, n int, l time.Duration) bool {
	for i := range n {
		if domain == domainFor(fmt.Sprint(prefix, i), l) {
			return true
		}
	}
	return false
}

func domainFor(prefix string, l time.Duration) string {
	return fmt.Sprintf("%s-%s.example.com", prefix, benchreport.ShortDuration(l))
}

// countProgressLines counts the provider's progress log lines
// (staticexport.LogExportProgress) per job id (staticexport.LogFieldJobID).
func countProgressLines(path string) (map[string]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	counts := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.Contains(line, staticexport.LogExportProgress) {
			continue
		}
		if _, rest, ok := strings.Cut(line, staticexport.LogFieldJobID+"="); ok {
			id, _, _ := strings.Cut(rest, " ")
			counts[strings.Trim(id, `"`)]++
		}
	}
	return counts, sc.Err()
}
