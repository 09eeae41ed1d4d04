package main

import (
	"context"
	"fmt"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/devprovider"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
)

// parallelExports applies 50 exports of two to three minutes at once
// (-parallelism=50) against an API that allows 5 requests a second.
func (b *bench) parallelExports(ctx context.Context) (*part, error) {
	const n, queue = 50, 2 * time.Second
	plans := &jobPlans{}
	longest := time.Duration(0)
	config := providerBlock
	for i := range n {
		// From 2 to 3 minutes, queue included.
		total := 2*time.Minute + time.Duration(i)*time.Minute/(n-1)
		domain := fmt.Sprintf("p%02d.example.com", i)
		plans.set(domain, fakeapi.JobPlan{QueueFor: queue, RunFor: total - queue})
		longest = max(longest, total)
		config += bundleBlock(fmt.Sprintf("p%02d", i), domain)
	}
	fake, err := devprovider.StartAPI(fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: plans.get}), fakeapi.WithLimits(fakeapi.LimitOptions{PerSecond: 5}))
	if err != nil {
		return nil, err
	}
	defer func() { _ = fake.Close() }()
	dir, err := b.workdir("parallel", config)
	if err != nil {
		return nil, err
	}

	began := time.Now()
	applyErr := b.terraform(devprovider.Env(fake)...).Run(ctx, dir, "apply", "-auto-approve", "-input=false", "-no-color", "-parallelism=50")
	took := time.Since(began)
	if applyErr != nil {
		return nil, applyErr
	}
	reqs := fake.Fake.Requests()
	status := 0
	for _, s := range statsByJob(reqs) {
		status += s.requests
	}
	ratio := took.Seconds() / longest.Seconds()
	p := &part{}
	p.printf("\n%d exports in one apply (-parallelism=50), API limited to 5 requests/s, jobs of 2 to 3 minutes:\n", n)
	p.printf("  exports completed with a bundle link: %d of %d\n", fake.Fake.BundlesGenerated(), n)
	p.printf("  apply time / longest job: %.2f\n", ratio)
	p.printf("  status requests per export: %.1f; all API requests %d, of which %d refused with 429 and retried\n",
		float64(status)/float64(n), len(reqs), fake.Fake.RateLimited())
	p.check(fake.Fake.BundlesGenerated() == n, "every export of a 50-bundle apply under 5 requests/s completes with a link: %d of %d",
		fake.Fake.BundlesGenerated(), n)
	p.check(ratio <= maxParallelRatio, "that apply takes at most %.2f times its longest job: %.2f", maxParallelRatio, ratio)
	return p, nil
}
