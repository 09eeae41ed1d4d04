package staticexport

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// stepSnapshot is the world just before a step's commands.
type stepSnapshot struct {
	state    providertest.Instance
	cfg      modelConfig
	jobs     int // jobs the fake had started
	requests int // requests the fake had recorded
	bundles  int // links the fake had generated
	at       time.Time
}

// Phrases of the diagnostics that speak of a start's outcome.
const (
	phraseMayHaveStarted = "may have started"
	phraseNoneStarted    = "No static export job was started."
)

// checkStep checks every invariant after a step's commands.
func (m *modelRun) checkStep(i int, step modelStep, snap stepSnapshot, results []providertest.Result) {
	after := m.session.Instance(modelAddr)
	started := m.startedSince(snap.jobs)
	m.checkStarts(i, step, snap, started)
	m.checkOrphans(i, started, after, results)
	m.checkSecrets(i, results)
	m.checkRevision(i, after)
	m.checkPrivate(i, after)
	m.checkRenewals(i, step, snap, after, results)
	// A saved plan applied later does what it showed, also when the link
	// became due meanwhile: the next plan renews it.
	if applies(step.Op) && step.Op != opSavedLater && results[len(results)-1].Exit == 0 && results[len(results)-1].Args[0] == "apply" {
		m.checkAfterApply(i, after)
	}
}

// applies reports whether a step applies changes, which may start a job.
func applies(op stepOp) bool {
	return op == opApply || op == opApplyNoRead || op == opSavedApply || op == opSavedLater || op == opInterrupt
}

// startedSince lists the jobs the provider started since the fake had n.
func (m *modelRun) startedSince(n int) []string {
	var out []string
	for _, id := range m.fake.JobIDs()[n:] {
		if !m.direct[id] {
			out = append(out, id)
		}
	}
	return out
}

func (m *modelRun) check() { m.stats.checks.Add(1) }

// checkStarts: invariant 1, no export job that nobody asked for.
func (m *modelRun) checkStarts(i int, step modelStep, snap stepSnapshot, started []string) {
	m.check()
	if len(started) == 0 {
		return
	}
	if !applies(step.Op) {
		m.violation(i, "%s started export job(s) %v", step.Op, started)
	}
	if len(started) > 1 {
		m.violation(i, "one apply started %d export jobs: %v", len(started), started)
	}
	if why := m.startJustified(snap); why != "" {
		m.record("  export job %s started: %s", started[0], why)
		return
	}
	m.violation(i, "export job %s started although the resource was neither new nor tainted, its configuration "+
		"forces no replacement, the latest read of job %s did not answer 404, and it had not failed",
		started[0], snap.state.Attr("job_id"))
}

// startJustified says why a new export was due when the step began, or "".
func (m *modelRun) startJustified(snap stepSnapshot) string {
	st := snap.state
	switch {
	case !st.Exists:
		return "the resource was not in state"
	case st.Tainted:
		return "the resource was tainted"
	case forcesReplacement(st, snap.cfg):
		return "the configuration forces a replacement"
	}
	old := st.Attr("job_id")
	reqs := m.fake.Requests()
	start := -1
	for k := len(reqs) - 1; k >= snap.requests; k-- {
		if isStart(reqs[k]) && (reqs[k].Status == http.StatusAccepted || reqs[k].Status == 0) {
			start = k
			break
		}
	}
	if start < 0 {
		return ""
	}
	for k := start - 1; k >= 0; k-- {
		if reqs[k].Method == http.MethodGet && reqs[k].Path == "/v1/static-export/jobs/"+old {
			if reqs[k].Status == http.StatusNotFound {
				return fmt.Sprintf("the latest read of job %s answered 404", old)
			}
			break
		}
	}
	if status, ok := m.fake.JobStatusAt(old, reqs[start].At); ok && status == mintlify.StatusFailed {
		return fmt.Sprintf("job %s had failed", old)
	}
	return ""
}

func isStart(r fakeapi.Request) bool {
	return fakeapi.IsStartRequest(&http.Request{Method: r.Method, URL: &url.URL{Path: r.Path}})
}

// forcesReplacement reports whether cfg differs from the state in an
// argument that starts a new export. An imported resource (no domain in
// state) adopts its configuration instead.
func forcesReplacement(st providertest.Instance, cfg modelConfig) bool {
	domain, ok := st.Attrs["domain"].(string)
	if !ok {
		return false
	}
	version, _ := st.Attrs["version"].(string)
	commit := ""
	if triggers, ok := st.Attrs["triggers"].(map[string]any); ok {
		commit, _ = triggers["docs_commit"].(string)
	}
	return domain != cfg["domain"] || version != cfg["version"] || commit != cfg["triggers"]
}

// checkOrphans: invariant 4, no silent orphans.
func (m *modelRun) checkOrphans(i int, started []string, after providertest.Instance, results []providertest.Result) {
	m.check()
	var output strings.Builder
	failed := false
	for _, r := range results {
		output.WriteString(r.Output)
		planChanges := r.Args[0] == "plan" && r.Exit == 2
		failed = failed || r.Exit != 0 && !planChanges
	}
	out := output.String()
	for _, id := range started {
		switch {
		case after.Exists && after.Attr("job_id") == id:
		case failed && (strings.Contains(out, id) || strings.Contains(out, phraseMayHaveStarted)):
		default:
			m.violation(i, "export job %s is neither in state nor named by a failure", id)
		}
	}
	if len(started) > 0 && strings.Contains(out, phraseNoneStarted) {
		m.violation(i, "the output says %q, but job(s) %v started", phraseNoneStarted, started)
	}
}

// checkSecrets: invariant 5, no API key or link signature in any output
// or provider log line.
func (m *modelRun) checkSecrets(i int, results []providertest.Result) {
	m.check()
	logs := m.logs.String()
	fresh := logs[m.logsChecked:]
	m.logsChecked = len(logs)
	secrets := append([]string{m.apiKey, strings.TrimPrefix(m.apiKey, "mint_")}, m.handler.allSignatures()...)
	places := map[string]string{"provider logs": fresh}
	for _, r := range results {
		places["terraform "+strings.Join(r.Args, " ")] = r.Output
	}
	for place, text := range places {
		for _, secret := range secrets {
			if k := strings.Index(text, secret); k >= 0 {
				m.violation(i, "a secret appears in the %s: …%s…", place, text[max(0, k-200):min(len(text), k+len(secret)+40)])
			}
		}
		if k := strings.Index(text, "Bearer "); k >= 0 {
			m.violation(i, "an Authorization header appears in the %s: …%s…", place, text[max(0, k-100):min(len(text), k+40)])
		}
	}
}

// checkRevision: invariant 6, link_revision never decreases.
func (m *modelRun) checkRevision(i int, after providertest.Instance) {
	m.check()
	rev, ok := after.Attrs["link_revision"].(float64)
	if !ok {
		return
	}
	if int64(rev) < m.maxRevision {
		m.violation(i, "link_revision went down from %d to %d", m.maxRevision, int64(rev))
	}
	m.maxRevision = int64(rev)
}

// checkPrivate: invariant 7, a plan's decision is not stored with the
// resource.
func (m *modelRun) checkPrivate(i int, after providertest.Instance) {
	m.check()
	var priv core.PrivateState[bundleFacts]
	if raw, ok := after.Private[privateKey]; ok && json.Unmarshal(raw, &priv) == nil && priv.PlannedAction != "" {
		m.violation(i, "the state's private data keeps the planned action %s", priv.PlannedAction)
	}
}

// renewalMargin is how far the clock may move between a step's start and
// the plan that judges the link: a refresh may wait out a 429 or retry.
const renewalMargin = 15 * time.Minute

// checkRenewals: invariant 8. A link that was not due is never renewed; a
// plan made when it was due shows a change.
func (m *modelRun) checkRenewals(i int, step modelStep, snap stepSnapshot, after providertest.Instance, results []providertest.Result) {
	m.check()
	st := snap.state
	if !st.Exists || st.Tainted || st.Attr("status") != mintlify.StatusCompleted || st.Attr("domain") == "" {
		return // a resume, an adoption or a replacement generates a link anyway
	}
	due, judged := m.linkDue(st, snap.cfg, snap.at)
	if !judged {
		return
	}
	renewed := m.fake.BundlesGenerated() > snap.bundles && after.Attr("job_id") == st.Attr("job_id")
	latest := snap.at.Add(renewalMargin)
	if step.Op == opSavedLater {
		latest = latest.Add(step.Advance)
	}
	if dueLater, _ := m.linkDue(st, snap.cfg, latest); renewed && !dueLater {
		m.violation(i, "the link of job %s was renewed although it was not due (it expires at %s)",
			st.Attr("job_id"), st.Attr("expires_at"))
	}
	for _, r := range results {
		if due && r.Args[0] == "plan" && r.Exit == 0 && slices.Contains(r.Args, "-detailed-exitcode") && !slices.Contains(r.Args, "-refresh-only") {
			m.violation(i, "the link of job %s was due (it expires at %s), but `terraform %s` planned no change",
				st.Attr("job_id"), st.Attr("expires_at"), strings.Join(r.Args, " "))
		}
	}
}

// linkDue reports whether the link in st is due at at under cfg; judged is
// false when the state does not tell (no expiry, or the default policy
// without the link's generation time).
func (m *modelRun) linkDue(st providertest.Instance, cfg modelConfig, at time.Time) (due, judged bool) {
	expires, err := time.Parse(time.RFC3339, st.Attr("expires_at"))
	if err != nil {
		return false, false
	}
	var priv core.PrivateState[bundleFacts]
	if raw, ok := st.Private[privateKey]; ok {
		_ = json.Unmarshal(raw, &priv)
	}
	link := linkState{ExpiresAt: expires, GeneratedAt: priv.Facts.LinkGeneratedAt}
	if !priv.Facts.LinkGeneratedAt.Before(expires) {
		link.GeneratedAt = time.Time{}
	}
	var renewBefore time.Duration
	if rb := cfg["renew_before"]; rb != "" {
		renewBefore, _ = time.ParseDuration(rb)
	}
	if renewBefore == 0 && link.GeneratedAt.IsZero() {
		return !at.Before(expires), !at.Before(expires)
	}
	return renewalReason(link, renewBefore, at) != "", true
}

// checkAfterApply: invariants 2 and 3, after a successful apply.
func (m *modelRun) checkAfterApply(i int, after providertest.Instance) {
	m.check()
	if !after.Exists || after.Tainted || after.Attr("status") != mintlify.StatusCompleted || after.Attr("bundle_url") == "" {
		m.violation(i, "after a successful apply the bundle is not a completed export with a link: exists %v, "+
			"tainted %v, status %q", after.Exists, after.Tainted, after.Attr("status"))
	}
	expires, err := time.Parse(time.RFC3339, after.Attr("expires_at"))
	if err != nil {
		m.violation(i, "expires_at %q: %v", after.Attr("expires_at"), err)
	}
	need := modelLinkTTL / 4
	if rb := m.cfg["renew_before"]; rb != "" {
		need, _ = time.ParseDuration(rb)
	}
	if left := expires.Sub(m.clock.Now()); left < need {
		m.violation(i, "after a successful apply the link is valid for %s only, less than %s", left, need)
	}
	m.checkDownload(i, after)

	m.check()
	res := m.cli(planArgs...)[0]
	if res.Exit != 0 {
		m.violation(i, "the plan right after a successful apply is not empty (exit %d):\n%s", res.Exit, providertest.Indent(res.Output))
	}
	m.checkSecrets(i, []providertest.Result{res})
}

func (m *modelRun) checkDownload(i int, after providertest.Instance) {
	resp, err := http.Get(after.Attr("bundle_url"))
	if err != nil {
		m.violation(i, "downloading the bundle: %v", err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		m.violation(i, "downloading the bundle: HTTP %d, %v: %s", resp.StatusCode, err, body)
	}
	if size, _ := after.Attrs["size_bytes"].(float64); strconv.Itoa(len(body)) != strconv.Itoa(int(size)) {
		m.violation(i, "the bundle has %d bytes, size_bytes says %v", len(body), after.Attrs["size_bytes"])
	}
}

// privateKey is the key of every resource's private state.
const privateKey = "mintlify"
