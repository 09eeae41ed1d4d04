package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/devprovider"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/tools/bench/benchreport"
)

// planTimes are the timed plans of planCost.
type planTimes struct {
	bundles, data, noRefresh, logged []time.Duration
	peak                             int64          // the provider's VmHWM, bytes
	perPlan                          map[string]int // API requests by route, over all runs
}

// planCost times `terraform plan` of 100 bundles against the same plan of
// 100 terraform_data resources, and samples the provider's peak memory.
func (b *bench) planCost(ctx context.Context, runs int) (*part, error) {
	const n = 100
	fake, err := devprovider.StartAPI(fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan {
		return fakeapi.JobPlan{RunFor: time.Second}
	}}))
	if err != nil {
		return nil, err
	}
	defer func() { _ = fake.Close() }()

	bundles, err := b.workdir("plan-bundles", providerBlock+fmt.Sprintf(`
resource "mintlify_static_export_bundle" "docs" {
  count  = %d
  domain = "docs${count.index}.example.com"
}
`, n))
	if err != nil {
		return nil, err
	}
	data, err := b.workdir("plan-terraform-data", fmt.Sprintf(`
resource "terraform_data" "docs" {
  count = %d
  input = "docs${count.index}.example.com"
}
`, n))
	if err != nil {
		return nil, err
	}
	for _, dir := range []string{bundles, data} {
		if err := b.terraform(devprovider.Env(fake)...).Run(ctx, dir, "apply", "-auto-approve", "-input=false", "-no-color", "-parallelism=100"); err != nil {
			return nil, err
		}
	}
	times := &planTimes{perPlan: map[string]int{}}
	for i := range runs {
		if err := b.timePlans(ctx, fake, bundles, data, i, times); err != nil {
			return nil, err
		}
	}
	return reportPlans(n, runs, times), nil
}

var planArgs = []string{"plan", "-input=false", "-no-color", "-detailed-exitcode"}

// timePlans runs one round: the bundles' plan and the terraform_data plan,
// alternating so that drift in the machine's speed hits both alike, then
// the bundles' plan without refresh (no API request at all) and with the
// provider's logs on, which Terraform discards.
func (b *bench) timePlans(ctx context.Context, fake *fakeapi.Served, bundles, data string, run int, times *planTimes) error {
	for _, dir := range []string{bundles, data} {
		fake.Fake.Reset()
		cmd := b.terraform(devprovider.Env(fake)...).Command(ctx, dir, planArgs...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		sampler := devprovider.SampleMemory(b.ws.Binary)
		began := time.Now()
		err := cmd.Run()
		took := time.Since(began)
		hwm := sampler.Stop()
		if err != nil {
			return fmt.Errorf("terraform plan in %s (run %d): %v\n%s", filepath.Base(dir), run+1, err, devprovider.Tail(out.Bytes(), 30))
		}
		if dir == data {
			times.data = append(times.data, took)
			continue
		}
		times.bundles = append(times.bundles, took)
		times.peak = max(times.peak, hwm)
		for _, req := range fake.Fake.Requests() {
			times.perPlan[req.Method+" "+routeOf(req.Path)]++
		}
	}
	for _, variant := range []struct {
		times *[]time.Duration
		env   []string
		args  []string
	}{
		{&times.noRefresh, devprovider.Env(fake), append(slices.Clone(planArgs), "-refresh=false")},
		{&times.logged, append(devprovider.Env(fake), "TF_LOG_SDK=TRACE"), planArgs},
	} {
		began := time.Now()
		if err := b.terraform(variant.env...).Run(ctx, bundles, variant.args...); err != nil {
			return err
		}
		*variant.times = append(*variant.times, time.Since(began))
	}
	return nil
}

// reportPlans reports the plan times as ratios to the terraform_data plan.
func reportPlans(n, runs int, t *planTimes) *part {
	median, data := benchreport.Median, benchreport.Median(t.data).Seconds()
	ratio := median(t.bundles).Seconds() / data
	p := &part{}
	p.printf("\nterraform plan of %d resources, median of %d runs each, nothing to change:\n", n, runs)
	p.printf("  %d bundles / %d terraform_data: %.2f (a plugin's start-up and gRPC calls, which terraform_data, built in, never pays: see internal/mintlify/poll/DESIGN.md)\n", n, n, ratio)
	p.printf("  the same bundles plan with -refresh=false (no API request at all) / terraform_data: %.2f\n",
		median(t.noRefresh).Seconds()/data)
	p.printf("  the same bundles plan with the provider's logs on (TF_LOG_SDK=TRACE; Terraform still discards them) / terraform_data: %.2f\n",
		median(t.logged).Seconds()/data)
	p.printf("  refresh's share of the bundles plan (1 - no-refresh/refresh): %.0f %%\n",
		100*(1-median(t.noRefresh).Seconds()/median(t.bundles).Seconds()))
	var calls []string
	statusCalls, probes := 0, 0
	for route, count := range t.perPlan {
		calls = append(calls, fmt.Sprintf("%s: %.0f", route, float64(count)/float64(runs)))
		switch route {
		case "GET /v1/static-export/jobs/{jobId}":
			statusCalls = count / runs
		case "GET /v1/static-export/{projectId}/jobs/{jobId}":
			probes = count / runs
		}
	}
	slices.Sort(calls)
	p.printf("  API requests per plan: %s\n", strings.Join(calls, ", "))
	// With the provider's project_id (MINTLIFY_PROJECT_ID), a plan also asks
	// once whether the API serves the project-scoped export.
	p.check(len(t.perPlan) == 2 && statusCalls == n && probes == 1, "a %d-bundle plan makes exactly one status "+
		"request per bundle, one question whether the project-scoped export is served, and no other: %s",
		n, strings.Join(calls, ", "))
	if t.peak > 0 {
		p.printf("  provider peak memory (VmHWM): %.1f MiB\n", float64(t.peak)/(1<<20))
		p.check(t.peak < benchreport.MaxProviderPeakRSS, "the provider stays under %d MiB during that plan: %.1f MiB",
			benchreport.MaxProviderPeakRSS>>20, float64(t.peak)/(1<<20))
	} else {
		p.printf("  provider peak memory: not measured (no /proc, or the plugin was not seen)\n")
	}
	return p
}
