package staticexport

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// TestAccStaticExportBundle_domainArgumentsDeprecated turns on the switch of
// the day Mintlify announces the retirement of the domain-scoped contract:
// a plan that sets `domain`, `version` and `paths` warns for each, naming it
// and the move guide, through the CLI under test (Terraform and OpenTofu word
// the warning differently). With the switch off, as today, no warning.
//
// Not parallel: it sets a package variable that every provider of the test
// binary reads, and Go starts the parallel tests only after this one ends.
func TestAccStaticExportBundle_domainArgumentsDeprecated(t *testing.T) {
	providertest.CLIContract(t, "resource.mintlify_static_export_bundle")
	env := providertest.NewTestEnv(t)
	cli := env.CLI(t)
	cli.WriteConfig(env.Config(providertest.BundleConfig("docs.example.com",
		`version = "2024-06-01"
  paths   = ["index"]`)))
	const guide = "docs/guides/moving-to-project-scoped-exports.md"

	if out := cli.MustRun("plan", "-no-color", "-input=false").Output; strings.Contains(out, "retiring") {
		t.Errorf("with the switch off, the plan warns of a deprecation:\n%s", out)
	}

	domainRetirementAnnounced = true
	t.Cleanup(func() { domainRetirementAnnounced = false })
	// The CLI prints the first warning whole and counts the similar ones
	// ("and 5 more similar warnings"); its JSON lists each.
	out := strings.Join(strings.Fields(cli.MustRun("plan", "-no-color", "-input=false").Output), " ")
	first := "`domain` belongs to the domain-scoped static export, which Mintlify is retiring."
	if !strings.Contains(out, first) || !strings.Contains(out, guide) || strings.Contains(out, "Error:") {
		t.Errorf("the plan does not warn %q, naming %s, without error:\n%s", first, guide, out)
	}
	warned := map[string]bool{}
	for _, line := range providertest.SplitLines(cli.MustRun("plan", "-json", "-input=false").Output) {
		var msg struct {
			Type       string `json:"type"`
			Diagnostic struct {
				Severity, Detail string
			} `json:"diagnostic"`
		}
		if json.Unmarshal([]byte(line), &msg) != nil || msg.Type != "diagnostic" ||
			msg.Diagnostic.Severity != "warning" || !strings.Contains(msg.Diagnostic.Detail, guide) {
			continue
		}
		for _, name := range []string{"domain", "version", "paths"} {
			warned[name] = warned[name] || strings.HasPrefix(msg.Diagnostic.Detail, "`"+name+"` belongs to")
		}
	}
	if !warned["domain"] || !warned["version"] || !warned["paths"] {
		t.Errorf("deprecation warnings naming the guide, by argument: %v; want domain, version and paths", warned)
	}
}
