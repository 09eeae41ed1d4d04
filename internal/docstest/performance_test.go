package docstest

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// idleCost is what one scheduled run with nothing to do costs one bundle:
// the requests to the API, of which status requests and links generated.
type idleCost struct{ requests, status, links int }

func (c idleCost) String() string {
	return fmt.Sprintf("%d requests: %d status, %d links", c.requests, c.status, c.links)
}

// The idle runs the performance guide prices, in the order of its table's
// columns: each a sequence of commands.
var idleRuns = []struct {
	name     string
	commands [][]string
}{
	{"apply alone", [][]string{{"apply", "-auto-approve", "-input=false", "-no-color"}}},
	{"plan -out, apply the saved plan", [][]string{
		{"plan", "-out=tfplan", "-input=false", "-no-color"}, {"apply", "-input=false", "-no-color", "tfplan"},
	}},
	{"plan, then apply", [][]string{
		{"plan", "-input=false", "-no-color"}, {"apply", "-auto-approve", "-input=false", "-no-color"},
	}},
}

// The setups the guide prices: its table's rows, by the start of their
// first cell.
var idleSetups = []struct {
	row, config, minVersion string
}{
	{"| Bundle resource", `
resource "mintlify_static_export_bundle" "docs" {
  domain = "docs.example.com"
}
`, ""},
	{"| Write-only", `
resource "mintlify_static_export_bundle" "docs" {
  domain     = "docs.example.com"
  store_link = false
}

ephemeral "mintlify_static_export_bundle" "link" {
  job_id = mintlify_static_export_bundle.docs.job_id
}

# Uses the link as a write-only argument would, at every plan and apply.
resource "terraform_data" "release" {
  input = mintlify_static_export_bundle.docs.link_revision

  lifecycle {
    precondition {
      condition     = startswith(ephemeral.mintlify_static_export_bundle.link.bundle_url, "http")
      error_message = "No link."
    }
  }
}
`, ">= 1.10"},
}

// idleCell is a cell of the guide's table: "3 requests: 1 status, 2 links".
var idleCell = regexp.MustCompile(`(\d+) requests?: (\d+) status, (\d+) links?`)

// TestPerformanceGuideIdleRunCosts measures what an idle scheduled run
// (nothing changed, no link due) costs in each setup and each way of
// running it, by counting the requests the fake API receives, and compares
// the counts with the table of docs/guides/performance.md.
func TestPerformanceGuideIdleRunCosts(t *testing.T) {
	t.Parallel()
	guide := readRepoFile(t, "docs/guides/performance.md")
	for _, setup := range idleSetups {
		t.Run(strings.TrimPrefix(setup.row, "| "), func(t *testing.T) {
			t.Parallel()
			if setup.minVersion != "" {
				providertest.SkipUnlessVersion(t, setup.minVersion)
			}
			stated := statedCosts(t, guide, setup.row)
			for i, run := range idleRuns {
				measured := measureIdleRun(t, setup.config, run.commands)
				if measured != stated[i] {
					t.Errorf("%s, %s: measured %v; docs/guides/performance.md says %v: correct the guide (templates/guides/performance.md.tmpl)",
						strings.TrimPrefix(setup.row, "| "), run.name, measured, stated[i])
				}
			}
		})
	}
}

// statedCosts is the guide's row that starts with row, one cost per idle
// run.
func statedCosts(t *testing.T, guide, row string) []idleCost {
	t.Helper()
	for _, line := range strings.Split(guide, "\n") {
		if !strings.HasPrefix(line, row) {
			continue
		}
		cells := idleCell.FindAllStringSubmatch(line, -1)
		if len(cells) != len(idleRuns) {
			t.Fatalf("docs/guides/performance.md: the row %q gives %d costs, want %d (%q)", row, len(cells), len(idleRuns), line)
		}
		costs := make([]idleCost, len(cells))
		for i, cell := range cells {
			n := make([]int, 3)
			for j := range n {
				n[j], _ = strconv.Atoi(cell[j+1])
			}
			costs[i] = idleCost{n[0], n[1], n[2]}
		}
		return costs
	}
	t.Fatalf("docs/guides/performance.md has no row starting %q in its table of idle runs", row)
	return nil
}

// measureIdleRun applies config (one bundle), then runs commands with
// nothing to do and counts the requests they sent.
func measureIdleRun(t *testing.T, config string, commands [][]string) idleCost {
	t.Helper()
	env := newTestEnv(t)
	cli := env.CLI(t)
	cli.WriteConfig(env.Config(config))
	cli.MustRun("apply", "-auto-approve", "-input=false", "-no-color")
	env.Fake.Reset()
	for _, args := range commands {
		if out := cli.MustRun(args...).Output; !strings.Contains(out, "No changes.") && !strings.Contains(out, "0 added, 0 changed, 0 destroyed") {
			t.Fatalf("terraform %s is not idle:\n%s", strings.Join(args, " "), out)
		}
	}
	var cost idleCost
	for _, r := range env.Fake.Requests() {
		cost.requests++
		switch {
		case r.Method == http.MethodGet && strings.HasPrefix(r.Path, "/v1/static-export/jobs/"):
			cost.status++
		case r.Method == http.MethodPost && strings.HasSuffix(r.Path, "/bundle"):
			cost.links++
		}
	}
	return cost
}
