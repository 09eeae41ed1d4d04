package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// result is what one simulated job measured.
type result struct {
	latency  time.Duration // from completion to the request that saw it
	requests int           // status requests
	minGap   time.Duration // shortest time between two status requests
}

// job is one simulated export.
type job struct {
	curve  int
	length int
	policy int
	plan   fakeapi.JobPlan
	seed   uint64
}

// runJob starts one export on its own fake and virtual clock and waits for
// it with the given policy.
func (s *simulator) runJob(j job) (result, error) {
	w, err := s.watch(j.plan, policies[j.policy].make(j.seed))
	if err != nil {
		return result{}, err
	}
	defer w.unmount()
	clk, c := w.clk, w.client
	ctx, cancel := clk.WithTimeout(context.Background(), 6*time.Hour)
	defer cancel()
	started, err := c.StartStaticExport(ctx, mintlify.StartStaticExportRequest{Domain: "docs.example.com"})
	if err != nil {
		return result{}, err
	}
	done, err := policies[j.policy].wait(ctx, c, started)
	if err != nil {
		return result{}, err
	}
	if done.Status != mintlify.StatusCompleted {
		return result{}, fmt.Errorf("job ended %s", done.Status)
	}
	finished := started.CreatedAt.Add(j.plan.QueueFor + j.plan.RunFor)

	polls := w.pollTimes()
	r := result{latency: clk.Now().Sub(finished), requests: len(polls), minGap: math.MaxInt64}
	for i := 1; i < len(polls); i++ {
		r.minGap = min(r.minGap, polls[i].Sub(polls[i-1]))
	}
	return r, nil
}

// run simulates every job and gathers the results by curve, length and
// policy.
func (s *simulator) run(perCell int, seed uint64) (*table, error) {
	rng := rand.New(rand.NewPCG(seed, 0x6a6f6273))
	var all []job
	for ci, c := range curves {
		for li, length := range lengths {
			for range perCell {
				// Both policies wait for the very same job.
				plan, jobSeed := c.plan(length, rng), rng.Uint64()
				for pi := range policies {
					all = append(all, job{curve: ci, length: li, policy: pi, plan: plan, seed: jobSeed})
				}
			}
		}
	}

	t := newTable()
	work := make(chan job)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	for range 2 * runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for j := range work {
				r, err := s.runJob(j)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("%s job of %s, %s policy: %w", curves[j.curve].name, lengths[j.length], policies[j.policy].name, err)
				}
				t.add(j, r)
				mu.Unlock()
			}
		})
	}
	for _, j := range all {
		work <- j
	}
	close(work)
	wg.Wait()
	return t, firstErr
}

// stuckWait is how long the stuck-job scenario waits for a job that rises
// to 10 % over its first minute and never moves again.
const stuckWait = 15 * time.Minute

// stuckResult is what the stuck-job scenario measured.
type stuckResult struct {
	jobs     int
	requests float64       // status requests per job, mean
	minGap   time.Duration // shortest gap a minute after it was seen flat
	late     time.Duration // how long after its deadline a wait ended, at worst
}

// runStuck waits, with the adaptive policy, on jobs that get stuck, until a
// deadline: the backoff it reaches and how exactly the wait honours the
// deadline.
func (s *simulator) runStuck(jobs int, seed uint64) (stuckResult, error) {
	res := stuckResult{jobs: jobs, minGap: math.MaxInt64}
	total := 0
	for i := range jobs {
		plan := fakeapi.JobPlan{QueueFor: 2 * time.Second, RunFor: time.Minute, Never: true}
		w, err := s.watch(plan, policies[0].make(seed+uint64(i)))
		if err != nil {
			return res, err
		}
		clk, c := w.clk, w.client
		ctx, cancel := clk.WithTimeout(context.Background(), stuckWait)
		started, err := c.StartStaticExport(ctx, mintlify.StartStaticExportRequest{Domain: "docs.example.com"})
		if err == nil {
			_, err = policies[0].wait(ctx, c, started)
		}
		cancel()
		w.unmount()
		if !errors.Is(err, context.DeadlineExceeded) {
			return res, fmt.Errorf("stuck job: the wait ended with %v, want the deadline", err)
		}
		res.late = max(res.late, clk.Now().Sub(start.Add(stuckWait)))
		// Measured from the poller's second look at the stuck job, the
		// first that can show it flat, plus the minute its backoff takes to
		// reach the cap.
		stuck := start.Add(plan.QueueFor + plan.RunFor)
		polls := w.pollTimes()
		total += len(polls)
		var seen time.Time
		for k := 1; k < len(polls); k++ {
			if seen.IsZero() && !polls[k-1].Before(stuck) {
				seen = polls[k]
				continue
			}
			if !seen.IsZero() && !polls[k-1].Before(seen.Add(time.Minute)) {
				res.minGap = min(res.minGap, polls[k].Sub(polls[k-1]))
			}
		}
	}
	res.requests = float64(total) / float64(jobs)
	return res, nil
}
