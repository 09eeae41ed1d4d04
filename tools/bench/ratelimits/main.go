// Command ratelimits is the rate-limit benchmark behind `make
// bench-ratelimits`. It builds the provider, serves the in-repo fake
// Mintlify API on loopback in real time with the API's documented trigger
// limits (deployments and automation runs share 10 requests per 10
// seconds per organization), and applies 20 mintlify_deployment resources
// (a for_each) in one apply with the Terraform CLI from PATH. The client
// paces its triggers within the limit and honours Retry-After, so every
// deployment must succeed; it prints the wall time against the floor the
// limit sets, the requests, and the 429s the fake answered. A deployment
// that fails, or an apply that fails, fails the benchmark.
//
// The pacing is per client, that is per provider configuration: two
// aliased configurations with the same organization's key pace apart and
// can meet 429s, which they wait out after Retry-After.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/devprovider"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/tools/bench/benchreport"
)

const (
	// deployments is how many mintlify_deployment resources the apply has.
	deployments = 20
	// queued and building are each deployment's timeline on the fake.
	queued, building = 2 * time.Second, 8 * time.Second
	// limitN per limitPer is the documented limit of the triggers.
	limitN, limitPer = 10, 10 * time.Second
	// maxFloorRatio bounds the apply's wall time against its floor.
	maxFloorRatio = 2.0
)

func main() {
	ok, err := run()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench-ratelimits failed:", err)
		os.Exit(1)
	}
	if !ok {
		fmt.Fprintln(os.Stderr, "bench-ratelimits: targets missed")
		os.Exit(1)
	}
}

func run() (bool, error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	terraform, err := devprovider.Terraform()
	if err != nil {
		return false, err
	}
	out := os.Stdout
	fmt.Fprintln(out, "Building the provider...")
	ws, err := devprovider.NewWorkspace(ctx, ".", "mintlify-bench-ratelimits-", out)
	if err != nil {
		return false, err
	}
	defer func() { _ = ws.Close() }()
	cli, err := devprovider.IdentifyBinary(terraform, ws.CLIConfig)
	if err != nil {
		return false, err
	}
	fake, err := devprovider.StartAPI(fakeapi.WithDeployments(fakeapi.DeploymentOptions{Plan: func(fakeapi.DeploymentRequest) fakeapi.DeploymentPlan {
		return fakeapi.DeploymentPlan{QueuedFor: queued, RunFor: building}
	}}))
	if err != nil {
		return false, err
	}
	defer func() { _ = fake.Close() }()
	dir := filepath.Join(ws.Dir, "deployments")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, err
	}
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o600); err != nil {
		return false, err
	}
	fmt.Fprintf(out, "%s, provider built from this tree, fake API on loopback in real time.\n", cli.Name)

	runner := ws.Commands(cli.Path, devprovider.Env(fake)...)
	if err := runner.Run(ctx, dir, "init", "-input=false", "-no-color"); err != nil {
		return false, err
	}
	began := time.Now()
	applyErr := runner.Run(ctx, dir, "apply", "-auto-approve", "-input=false", "-no-color", "-parallelism=20")
	took := time.Since(began)

	triggers, statuses := countRequests(fake.Fake.Requests())
	succeeded := successes(fake)
	// The floor: the last trigger may go only once the first window has
	// passed ((n-1)/limitN windows), then it queues and builds.
	floor := time.Duration((deployments-1)/limitN)*limitPer + queued + building
	ratio := took.Seconds() / floor.Seconds()

	fmt.Fprintf(out, "\n%d mintlify_deployment (for_each) in one apply, triggers limited to %d per %s, deployments of %s:\n",
		deployments, limitN, benchreport.ShortDuration(limitPer), benchreport.ShortDuration(queued+building))
	fmt.Fprintf(out, "  deployments succeeded: %d of %d\n", succeeded, deployments)
	fmt.Fprintf(out, "  wall time: %s; floor set by the limit: %s; ratio %.2f\n",
		took.Round(100*time.Millisecond), floor, ratio)
	fmt.Fprintf(out, "  requests: %d triggers, %d status reads, %d in all; 429s answered: %d\n",
		triggers, statuses, len(fake.Fake.Requests()), fake.Fake.TriggersRefused())
	if applyErr != nil {
		fmt.Fprintln(out)
		return false, applyErr
	}
	fmt.Fprintln(out)
	v := benchreport.NewVerdict(out)
	v.Check(succeeded == deployments, "every deployment of a %d-deployment apply succeeds under the trigger limit: %d of %d",
		deployments, succeeded, deployments)
	v.Check(triggers == deployments, "each deployment is triggered exactly once: %d triggers for %d deployments", triggers, deployments)
	v.Check(ratio <= maxFloorRatio, "the apply takes at most %.1f times the floor the limit sets: %.2f", maxFloorRatio, ratio)
	return !v.Failed(), nil
}

// countRequests counts the trigger requests the fake answered 202 and the
// status reads.
func countRequests(reqs []fakeapi.Request) (triggers, statuses int) {
	for _, r := range reqs {
		switch {
		case r.Method == http.MethodPost && strings.HasPrefix(r.Path, "/v1/project/update/") && r.Status == http.StatusAccepted:
			triggers++
		case r.Method == http.MethodGet && strings.HasPrefix(r.Path, "/v1/project/update-status/"):
			statuses++
		}
	}
	return triggers, statuses
}

// successes counts the deployments that ended in success, now.
func successes(fake *fakeapi.Served) int {
	n := 0
	for _, r := range fake.Fake.Requests() {
		if r.Method != http.MethodPost || !strings.HasPrefix(r.Path, "/v1/project/update/") || r.Status != http.StatusAccepted {
			continue
		}
		var answer struct {
			StatusID string `json:"statusId"`
		}
		if json.Unmarshal(r.Response, &answer) != nil {
			continue
		}
		if status, ok := fake.Fake.DeploymentStatusAt(answer.StatusID, time.Now()); ok && status == "success" {
			n++
		}
	}
	return n
}

var config = fmt.Sprintf(`
terraform {
  required_providers {
    mintlify = { source = "mintlify/mintlify" }
  }
}

resource "mintlify_deployment" "site" {
  for_each = toset([for i in range(%d) : format("site-%%02d", i)])

  triggers = {
    name = each.key
  }
}

output "statuses" {
  value = [for d in mintlify_deployment.site : d.status]
}
`, deployments)
