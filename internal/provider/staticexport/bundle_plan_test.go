package staticexport

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// planLinkTable is the bundle's lifecycle as a decision table: the first
// row whose every condition holds gives the action. A condition names an
// input and the values it accepts, separated by "|"; an input a row does
// not name may be anything. TestPlanLink checks planLink against it on
// every combination of the inputs, and that every row decides some.
var planLinkTable = []struct {
	when map[string]string
	want core.PlannedAction
}{
	{map[string]string{"gone": "yes"}, actionReplaceGone},
	{map[string]string{"imported": "yes"}, actionAdoptImport},
	{map[string]string{"status": "failed"}, actionReplaceFailed},
	{map[string]string{"link": "none"}, core.ActionResume},
	{map[string]string{"link": "no-expiry"}, actionRenew},
	{map[string]string{"renew_triggers": "changed"}, actionRenew},
	{map[string]string{"renew_link": "false"}, actionNone},
	{map[string]string{"renew_before": "unknown"}, actionNone},
	{map[string]string{"clock": "none"}, actionNone},
	{map[string]string{"link": "expired"}, actionRenew},
	{map[string]string{"renew_before": "1h", "link": "50m-left|20m-left"}, actionRenew},
	{map[string]string{"renew_before": "unset", "generated_at": "known", "link": "20m-left"}, actionRenew},
	{map[string]string{}, actionNone},
}

// planLinkInputs are the values each input takes. A link is two hours long:
// 50 minutes left is within `renew_before = "1h"` but more than a quarter
// of the lifetime; 20 minutes left is within both.
var planLinkInputs = map[string][]string{
	"gone":           {"no", "yes"},
	"imported":       {"no", "yes"},
	"status":         {"", mintlify.StatusQueued, mintlify.StatusRunning, mintlify.StatusCompleted, mintlify.StatusFailed},
	"link":           {"none", "no-expiry", "110m-left", "50m-left", "20m-left", "expired"},
	"generated_at":   {"known", "unknown"},
	"renew_before":   {"unset", "1h", "unknown"},
	"clock":          {"read", "none"},
	"renew_triggers": {"same", "changed"},
	"renew_link":     {"true", "false"},
}

// factsFor builds planLink's input from one combination.
func factsFor(c map[string]string) linkFacts {
	generated := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	f := linkFacts{
		JobID:    "se_0123456789abcdef",
		Gone:     c["gone"] == "yes",
		Imported: c["imported"] == "yes",
		Status:   c["status"],
		HasLink:  c["link"] != "none",
	}
	left := map[string]time.Duration{"110m-left": 110 * time.Minute, "50m-left": 50 * time.Minute, "20m-left": 20 * time.Minute, "expired": -time.Hour}
	if d, ok := left[c["link"]]; ok {
		f.Link.ExpiresAt = generated.Add(2 * time.Hour)
		if c["generated_at"] == "known" {
			f.Link.GeneratedAt = generated
		}
		if c["clock"] == "read" {
			f.JudgedAt = f.Link.ExpiresAt.Add(-d)
		}
	} else if c["clock"] == "read" {
		f.JudgedAt = generated
	}
	f.RenewTriggersChanged = c["renew_triggers"] == "changed"
	f.LeaveLink = c["renew_link"] == "false"
	switch c["renew_before"] {
	case "1h":
		f.RenewBefore = time.Hour
	case "unknown":
		f.RenewBeforeUnknown = true
	}
	return f
}

// combinations lists every combination of planLinkInputs.
func combinations() []map[string]string {
	names := make([]string, 0, len(planLinkInputs))
	for name := range planLinkInputs {
		names = append(names, name)
	}
	slices.Sort(names)
	all := []map[string]string{{}}
	for _, name := range names {
		var next []map[string]string
		for _, c := range all {
			for _, v := range planLinkInputs[name] {
				n := make(map[string]string, len(c)+1)
				for k, x := range c {
					n[k] = x
				}
				n[name] = v
				next = append(next, n)
			}
		}
		all = next
	}
	return all
}

func TestPlanLink(t *testing.T) {
	t.Parallel()
	used := make([]int, len(planLinkTable))
	combos := combinations()
	for _, c := range combos {
		row := slices.IndexFunc(planLinkTable, func(r struct {
			when map[string]string
			want core.PlannedAction
		}) bool {
			for input, accepted := range r.when {
				if !slices.Contains(strings.Split(accepted, "|"), c[input]) {
					return false
				}
			}
			return true
		})
		used[row]++
		f := factsFor(c)
		got, reason := planLink(f)
		if got != planLinkTable[row].want {
			t.Errorf("%v: planLink = %s (%s), want %s (row %d)", c, got, reason, planLinkTable[row].want, row)
			continue
		}
		// Every action but none says why; a replacement names the job.
		if got != actionNone && reason == "" {
			t.Errorf("%v: %s without a reason", c, got)
		}
		if replaces(got) && !strings.Contains(reason, f.JobID) {
			t.Errorf("%v: reason %q does not name the job", c, reason)
		}
	}
	for row, n := range used {
		if n == 0 {
			t.Errorf("row %d of the table (%v) decides no combination: it is dead", row, planLinkTable[row].when)
		}
	}
	t.Logf("%d combinations, %d rows", len(combos), len(planLinkTable))
}

// TestPlanLinkPromises states the lifecycle's promises over every
// combination, independently of the table's order.
func TestPlanLinkPromises(t *testing.T) {
	t.Parallel()
	for _, c := range combinations() {
		f := factsFor(c)
		got, _ := planLink(f)
		name := fmt.Sprint(c)
		switch {
		case replaces(got) && !f.Gone && f.Status != mintlify.StatusFailed:
			t.Errorf("%s: replaced although the job is neither gone nor failed", name)
		case replaces(got) && f.Imported && !f.Gone:
			t.Errorf("%s: an imported job is replaced instead of adopted", name)
		case got == actionRenew && !f.HasLink:
			t.Errorf("%s: renews a link that does not exist", name)
		case got == actionRenew && !f.Link.ExpiresAt.IsZero() && f.JudgedAt.IsZero() && !f.RenewTriggersChanged:
			t.Errorf("%s: judges a link without a clock", name)
		case got == actionNone && (f.Gone || f.Imported || !f.HasLink):
			t.Errorf("%s: leaves alone a job that is gone, imported or without a link", name)
		}
	}
}
