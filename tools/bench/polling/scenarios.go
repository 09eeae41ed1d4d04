package main

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify/poll"
)

// start is the virtual moment every job is created at.
var start = time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)

// curve is one family of synthetic jobs.
type curve struct {
	name string
	// advancing curves are held to the request budget.
	advancing bool
	// plan returns the job plan for a nominal run length, drawing from rng.
	plan func(length time.Duration, rng *rand.Rand) fakeapi.JobPlan
}

// Stall fractions of the stalled curve: flat from 30 % to 60 % of the run.
const stallFrom, stallTo = 0.3, 0.6

// curves are the progress shapes the policy is measured on. Every job queues
// for 0.5 to 3 s and runs for its nominal length ±10 %, except the
// long-queued ones, which first wait half to all of their run length.
var curves = []curve{
	{"linear", true, planWith(nil)},
	{"front-loaded", true, planWith(fakeapi.FrontLoaded)},
	{"back-loaded", true, planWith(fakeapi.BackLoaded)},
	{"stalled", false, planWith(fakeapi.Stall(stallFrom, stallTo))},
	{"long-queued", false, func(length time.Duration, rng *rand.Rand) fakeapi.JobPlan {
		p := planWith(nil)(length, rng)
		p.QueueFor = time.Duration(float64(p.RunFor) * (0.5 + 0.5*rng.Float64()))
		return p
	}},
}

func planWith(c func(float64) float64) func(time.Duration, *rand.Rand) fakeapi.JobPlan {
	return func(length time.Duration, rng *rand.Rand) fakeapi.JobPlan {
		return fakeapi.JobPlan{
			QueueFor: time.Duration((0.5 + 2.5*rng.Float64()) * float64(time.Second)),
			RunFor:   time.Duration(float64(length) * (0.9 + 0.2*rng.Float64())),
			Curve:    c,
		}
	}
}

var lengths = []time.Duration{5 * time.Second, 20 * time.Second, time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute, 30 * time.Minute}

// policy is one way of spacing status requests.
type policy struct {
	name string
	// make returns the policy for one job; seed makes its jitter repeatable.
	make func(seed uint64) poll.Policy
	// wait waits for the job start returned, as this side does it.
	wait func(ctx context.Context, c *mintlify.Client, started *mintlify.StaticExportJob) (*mintlify.StaticExportJob, error)
}

var policies = []policy{
	// The provider: its resource takes the start's answer as the first
	// status (queued), so its first request waits for the policy.
	{"adaptive", func(seed uint64) poll.Policy {
		return poll.Adaptive{Rand: rand.New(rand.NewPCG(seed, 0x5eed)).Float64}
	}, func(ctx context.Context, c *mintlify.Client, started *mintlify.StaticExportJob) (*mintlify.StaticExportJob, error) {
		return c.WaitForStaticExport(ctx, started.JobID, mintlify.Started(started))
	}},
	// Mintlify's documented loop: a status request right after the start, then one
	// every 10 s, as a generic waiter (the SDK's StateChangeConf with its
	// default Delay of 0) does.
	{"fixed 10s", func(uint64) poll.Policy {
		return poll.Exponential{Initial: 10 * time.Second, Max: 10 * time.Second, Multiplier: 1}
	}, func(ctx context.Context, c *mintlify.Client, started *mintlify.StaticExportJob) (*mintlify.StaticExportJob, error) {
		return c.WaitForStaticExport(ctx, started.JobID)
	}},
}
