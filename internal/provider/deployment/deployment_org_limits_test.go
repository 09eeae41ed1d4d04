package deployment

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// orgPreviews is n previews of branches "team-<i>", with extra arguments.
func orgPreviews(n int, extra string) string {
	return fmt.Sprintf(`
resource "mintlify_preview_deployment" "team" {
  count  = %d
  branch = "team-${count.index}"
  %s
}
`, n, extra)
}

// TestAccPreviewDeployment_waitsItsTurnInTheOrganization: the stand-in
// enforces the organization's limit of 5 previews a minute across
// provider processes and answers 429 as plain text without a Retry-After.
// A first workspace (its own provider process) uses the whole limit. A
// second one, whose timeout ends before the next turn, fails naming the
// limit and its timeout, having started nothing. A third, with the default
// timeout, waits its turn, past max_retries, and succeeds.
func TestAccPreviewDeployment_waitsItsTurnInTheOrganization(t *testing.T) {
	t.Parallel()
	env := providertest.NewTestEnv(t, fakeapi.WithLimits(fakeapi.LimitOptions{PlainText: true}))
	workspace := func(body string) *providertest.CLI {
		cli := env.CLI(t) // a provider process of its own for each command
		cli.WriteConfig(providertest.ConfigWithProvider(env, fmt.Sprintf("project_id = %q\n  max_retries = 1", providertest.ProjectID), body))
		cli.MustRun("init", "-no-color", "-input=false")
		return cli
	}
	first := workspace(orgPreviews(5, "wait_for_completion = false"))
	first.MustRun("apply", "-auto-approve", "-no-color", "-input=false")
	began := env.Clock.Now()

	hurried := workspace(previewConfig(previewBranch, `timeouts = { create = "30s" }`))
	res := hurried.Run("apply", "-auto-approve", "-no-color", "-input=false")
	want := []string{"Mintlify Rate Limit Outlasted The Timeout", "trigger preview deployment (5 requests per minute per organization)",
		"HTTP 429 (Too Many Requests)", "`timeouts.create` (30s) ends before the next turn", "Raise `timeouts.create`",
		"No preview was deployed"}
	if res.Exit == 0 || !providertest.ExpectError(want...).MatchString(res.Output) {
		t.Errorf("a workspace whose timeout ends before its turn: want it to fail saying %q\n%s", want, res)
	}
	if n := len(env.Fake.DeploymentRequests()); n != 5 {
		t.Errorf("%d previews deployed after the hurried workspace, want the first workspace's 5", n)
	}

	patient := workspace(previewConfig(previewBranch, ""))
	patient.MustRun("apply", "-auto-approve", "-no-color", "-input=false")
	if waited := env.Clock.Now().Sub(began); waited < time.Minute {
		t.Errorf("the patient workspace's preview went %s after the first workspace's, want its turn a minute later", waited)
	}
	reqs := env.Fake.DeploymentRequests()
	if len(reqs) != 6 || reqs[5].Branch != previewBranch {
		t.Errorf("previews deployed: %+v, want the first workspace's 5 and then %q", reqs, previewBranch)
	}
	refused := 0
	for _, r := range env.Fake.Requests() {
		if r.Status == http.StatusTooManyRequests && strings.HasPrefix(r.Path, "/v1/project/preview/") {
			refused++
		}
	}
	// max_retries = 1: the 429s are turns, not faults.
	if refused < 3 {
		t.Errorf("%d plain-text 429s answered, want the hurried workspace's and at least two of the patient one's", refused)
	}
}

// TestDeploymentAction_showsItsTurn: while the rest of the organization
// holds the limit of triggers, the action says in its progress that it
// waits its turn, naming the limit, then deploys.
func TestDeploymentAction_showsItsTurn(t *testing.T) {
	providertest.SkipUnlessVersion(t, ">= 1.14")
	env := providertest.NewTestEnv(t, fakeapi.WithLimits(fakeapi.LimitOptions{PlainText: true}))
	for range 10 { // another workspace of the organization
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, env.URL+"/v1/project/update/"+providertest.ProjectID, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+fakeapi.DefaultAPIKey)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
	}
	cli := env.CLI(t)
	cli.WriteConfig(env.Config(deploymentActionConfig("docs", "wait_for_completion = false")))
	cli.MustRun("init", "-no-color", "-input=false")
	out := cli.MustRun("apply", "-auto-approve", "-no-color", "-input=false", "-invoke=action.mintlify_deployment.docs").Output
	lines := providertest.ProgressLines(out, "action.mintlify_deployment.docs", "CLI")
	providertest.ExpectLines(t, "the progress of an action that waits its turn", lines[:2],
		`Waiting 1[01]s for a turn within Mintlify's rate limit on trigger update and trigger automation \(10 requests `+
			`per 10 seconds per organization\), shared by every run of the organization \(wait 1; the API named no Retry-After\)\.`,
		`Triggered deployment \w+ of project proj_test\.`)
}
