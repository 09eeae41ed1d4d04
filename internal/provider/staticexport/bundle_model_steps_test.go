package staticexport

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// The steps of the lifecycle's model-based test
// (static_export_bundle_model_test.go) and their generator. A sequence is a
// pure function of its seed: the steps are drawn up front, and a step that
// does not apply when its turn comes (untaint with nothing tainted) is
// skipped, so a seed replays the same sequence.

type stepOp string

const (
	opApply       stepOp = "apply"
	opApplyNoRead stepOp = "apply-refresh=false"
	opSavedApply  stepOp = "apply-saved-plan"
	// opSavedLater saves a plan (with or without a refresh), lets the clock
	// run on, then applies it.
	opSavedLater  stepOp = "apply-saved-plan-later"
	opPlan        stepOp = "plan"
	opPlanNoRead  stepOp = "plan-refresh=false"
	opRefreshOnly stepOp = "refresh-only"
	// opRefreshPlan is a refresh-only apply, then a plan.
	opRefreshPlan stepOp = "refresh-only-then-plan"
	opImport      stepOp = "import"
	opTaint       stepOp = "taint"
	opUntaint     stepOp = "untaint"
	opConfig      stepOp = "config"
	opAdvance     stepOp = "advance"
	opFault       stepOp = "fault"
	opNextJob     stepOp = "next-job"
	opInterrupt   stepOp = "interrupted-apply"
)

// modelStep is one step of a sequence; only the fields of its Op are set.
type modelStep struct {
	Op stepOp
	// opConfig: the attribute (domain, triggers, version, renew_before,
	// timeouts) and its new value ("" unsets it).
	Field, Value string
	// opAdvance, opSavedLater: how far the clock jumps.
	Advance time.Duration
	// opSavedLater: the plan's refresh flag ("-refresh=true" or
	// "-refresh=false").
	Refresh string
	// opFault: which fault (faultRules), its size, and for how many
	// terraform commands it lasts.
	Fault string
	Burst int
	Steps int
	// opNextJob: how the next export job behaves (jobBehaviours).
	Job string
	// opImport: which job to import: "same" (the one in state, after
	// `terraform state rm`), "other" (one a CI script started) or
	// "missing".
	Import string
	// opInterrupt: the request during which Ctrl-C comes: "start" (after
	// the API took it), "status" or "bundle".
	At string
}

func (s modelStep) String() string {
	switch s.Op {
	case opConfig:
		if s.Value == "" {
			return fmt.Sprintf("config: unset %s", s.Field)
		}
		return fmt.Sprintf("config: %s = %q", s.Field, s.Value)
	case opAdvance:
		return fmt.Sprintf("advance the clock %s", s.Advance)
	case opSavedLater:
		return fmt.Sprintf("%s: plan %s, apply %s later", s.Op, s.Refresh, s.Advance)
	case opFault:
		return fmt.Sprintf("fault: %s (burst %d) for %d command(s)", s.Fault, s.Burst, s.Steps)
	case opNextJob:
		return "next job: " + s.Job
	case opImport:
		return "import: " + s.Import
	case opInterrupt:
		return "interrupted apply: Ctrl-C during the " + s.At + " request"
	}
	return string(s.Op)
}

// The values each step draws from.
var (
	modelConfigValues = map[string][]string{
		"domain":       {"docs.example.com", "docs2.example.com"},
		"triggers":     {"", "aaa111", "bbb222"},
		"version":      {"", "2024-06-01", "2024-07-01"},
		"renew_before": {"", "1h", "6h", "20h"}, // all shorter than the 24h link
		"timeouts":     {"", "10m"},
	}
	modelConfigFields = []string{"domain", "triggers", "version", "renew_before", "timeouts"}
	modelAdvances     = []time.Duration{time.Minute, 10 * time.Minute, 45 * time.Minute, 2 * time.Hour, 7 * time.Hour,
		13 * time.Hour, 19 * time.Hour, 25 * time.Hour, 50 * time.Hour, 72 * time.Hour}
	modelFaults    = []string{"404-next-read", "404-reads", "404-bundle", "5xx-burst", "429-burst", "drops", "lost-start"}
	modelJobs      = []string{"fails", "fails-after-2h", "slow-20m", "slow-2h"}
	modelImports   = []string{"same", "other", "missing"}
	modelInterrupt = []string{"start", "status", "bundle"}
)

// stepWeights is how often each op is drawn, out of their sum.
var stepWeights = []struct {
	op     stepOp
	weight int
}{
	{opApply, 18}, {opApplyNoRead, 4}, {opSavedApply, 4}, {opSavedLater, 5}, {opPlan, 5}, {opPlanNoRead, 4},
	{opRefreshOnly, 6}, {opRefreshPlan, 4}, {opImport, 4}, {opTaint, 3}, {opUntaint, 4},
	{opConfig, 12}, {opAdvance, 12}, {opFault, 12}, {opNextJob, 5}, {opInterrupt, 6},
}

// generateSteps draws a sequence of 10 to 30 steps from seed.
func generateSteps(seed uint64) []modelStep {
	rng := rand.New(rand.NewPCG(seed, 0x6d696e746c696679))
	n := 10 + rng.IntN(21)
	steps := make([]modelStep, 0, n)
	if rng.IntN(5) > 0 {
		steps = append(steps, modelStep{Op: opApply})
	}
	total := 0
	for _, w := range stepWeights {
		total += w.weight
	}
	for len(steps) < n {
		pick := rng.IntN(total)
		for _, w := range stepWeights {
			if pick < w.weight {
				steps = append(steps, drawStep(rng, w.op))
				break
			}
			pick -= w.weight
		}
	}
	return steps
}

func drawStep(rng *rand.Rand, op stepOp) modelStep {
	s := modelStep{Op: op}
	pickOne := func(values []string) string { return values[rng.IntN(len(values))] }
	switch op {
	case opConfig:
		s.Field = pickOne(modelConfigFields)
		s.Value = pickOne(modelConfigValues[s.Field])
	case opAdvance:
		s.Advance = modelAdvances[rng.IntN(len(modelAdvances))]
	case opSavedLater:
		s.Advance = modelAdvances[rng.IntN(len(modelAdvances))]
		s.Refresh = pickOne([]string{"-refresh=true", "-refresh=false"})
	case opFault:
		s.Fault = pickOne(modelFaults)
		s.Burst = 1 + rng.IntN(8)
		s.Steps = 1 + rng.IntN(3)
	case opNextJob:
		s.Job = pickOne(modelJobs)
	case opImport:
		s.Import = pickOne(modelImports)
	case opInterrupt:
		s.At = pickOne(modelInterrupt)
	}
	return s
}

// faultRules are the fake's rules for a fault step.
func faultRules(name string, burst int) []fakeapi.FaultRule {
	serverErrors := []fakeapi.Fault{fakeapi.ServerError(http.StatusBadGateway),
		fakeapi.ServerError(http.StatusServiceUnavailable), fakeapi.ServerError(http.StatusInternalServerError)}
	switch name {
	case "404-next-read":
		return []fakeapi.FaultRule{{Match: fakeapi.IsStatusRequest, Count: 1, Faults: []fakeapi.Fault{fakeapi.NotFound()}}}
	case "404-reads":
		return []fakeapi.FaultRule{{Match: fakeapi.IsStatusRequest, Faults: []fakeapi.Fault{fakeapi.NotFound()}}}
	case "404-bundle":
		return []fakeapi.FaultRule{{Match: fakeapi.IsBundleRequest, Count: 1, Faults: []fakeapi.Fault{fakeapi.NotFound()}}}
	case "5xx-burst":
		return []fakeapi.FaultRule{{Count: burst, Faults: serverErrors}}
	case "429-burst":
		return []fakeapi.FaultRule{{Count: burst, Faults: []fakeapi.Fault{fakeapi.TooManyRequests(time.Duration(burst*5) * time.Second)}}}
	case "drops":
		return []fakeapi.FaultRule{{Match: fakeapi.AnyOf(fakeapi.IsStatusRequest, fakeapi.IsBundleRequest), Count: burst,
			Faults: []fakeapi.Fault{fakeapi.DropConnection()}}}
	case "lost-start":
		return []fakeapi.FaultRule{{Match: fakeapi.IsStartRequest, Count: 1, Faults: []fakeapi.Fault{fakeapi.LoseAnswer()}}}
	}
	panic("unknown fault " + name)
}

// jobBehaviours are the plans of the next job a step asks for; every other
// job queues for 5 s and runs for 3 minutes.
var jobBehaviours = map[string]fakeapi.JobPlan{
	"fails":          {QueueFor: 5 * time.Second, RunFor: time.Minute, FailWith: "page guides/broken could not be rendered"},
	"fails-after-2h": {QueueFor: 5 * time.Second, RunFor: 2 * time.Hour, FailWith: "the renderer ran out of memory"},
	"slow-20m":       {QueueFor: 5 * time.Second, RunFor: 20 * time.Minute},
	"slow-2h":        {QueueFor: 5 * time.Second, RunFor: 2 * time.Hour},
}

var defaultModelJob = fakeapi.JobPlan{QueueFor: 5 * time.Second, RunFor: 3 * time.Minute}

// modelConfig is the bundle's configuration at one point of a sequence.
type modelConfig map[string]string

// hcl renders the configuration: the provider pointed at the fake, the API
// key from a sensitive variable, and the bundle.
func (c modelConfig) hcl(url string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `terraform {
  required_providers {
    mintlify = { source = "mintlify/mintlify" }
  }
}

variable "mintlify_api_key" {
  type      = string
  sensitive = true
}

provider "mintlify" {
  api_key     = var.mintlify_api_key
  base_url    = %q
  project_id  = %q
  max_retries = 3
}

resource "mintlify_static_export_bundle" "docs" {
  domain = %q
`, url, providertest.ProjectID, c["domain"])
	if v := c["version"]; v != "" {
		fmt.Fprintf(&b, "  version = %q\n", v)
	}
	if v := c["triggers"]; v != "" {
		fmt.Fprintf(&b, "  triggers = { docs_commit = %q }\n", v)
	}
	if v := c["renew_before"]; v != "" {
		fmt.Fprintf(&b, "  renew_before = %q\n", v)
	}
	if v := c["timeouts"]; v != "" {
		fmt.Fprintf(&b, "  timeouts = { create = %q, update = %q }\n", v, v)
	}
	b.WriteString("}\n")
	return b.String()
}
