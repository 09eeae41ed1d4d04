package fakeapi

import (
	"io"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"
)

// The documented rate limits, per organization (the fake serves one, to
// every process that calls it: several provider processes against one
// server share its limits as the workspaces of one organization do):
// "Trigger update", "Trigger automation" and "Trigger automation webhook"
// share 10 requests per 10 seconds; "Trigger preview deployment" allows 5
// per minute; the next static export contract allows 10 job starts per
// hour (only starts that create a job count, next_export.go). Agent job
// creation and follow-up messages allow 100 per project per hour. A request
// beyond a limit answers 429 and reaches no handler: the API's JSON error
// with a Retry-After header in whole seconds, or, with
// LimitOptions.PlainText, plain text without one, as Mintlify's shared key
// layer may answer an organization-wide limit. LimitOptions.OthersUse has
// the rest of the organization use a share of each organization-wide limit.
const (
	triggerLimit      = 10
	triggerWindow     = 10 * time.Second
	previewLimit      = 5
	previewWindow     = time.Minute
	exportWindow      = time.Hour
	agentPromptLimit  = 100
	agentPromptWindow = time.Hour
)

// limitGroup names the requests that share one limit.
type limitGroup string

const (
	groupTriggers limitGroup = "triggers"
	groupPreviews limitGroup = "previews"
	// groupExportStarts are the next contract's job starts.
	groupExportStarts limitGroup = "export starts"
	// groupAgentPrompts are agent job creations and follow-up messages,
	// counted per project.
	groupAgentPrompts limitGroup = "agent prompts"
)

// slidingWindows counts, for each group (and project, for a per-project
// limit), the accepted requests of its window, on the server's clock.
type slidingWindows struct {
	mu      sync.Mutex
	limits  map[limitGroup]windowLimit
	history map[string][]time.Time
	refused int
	// others is the share of each organization-wide limit that the rest
	// of the organization uses (LimitOptions.OthersUse).
	others float64
}

type windowLimit struct {
	n          int
	per        time.Duration
	perProject bool
}

func documentedWindows() *slidingWindows {
	return &slidingWindows{
		limits: map[limitGroup]windowLimit{
			groupTriggers: {n: triggerLimit, per: triggerWindow},
			groupPreviews: {n: previewLimit, per: previewWindow},

			groupExportStarts: {n: exportStartLimit, per: exportWindow},
			groupAgentPrompts: {n: agentPromptLimit, per: agentPromptWindow, perProject: true},
		},
		history: make(map[string][]time.Time),
	}
}

// take admits a request of group (in project, for a per-project limit) at
// now, or says how long to wait.
func (w *slidingWindows) take(group limitGroup, project string, now time.Time) (time.Duration, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	limit := w.limits[group]
	key := string(group)
	if limit.perProject {
		key += "/" + project
	}
	recent := w.history[key][:0]
	for _, at := range w.history[key] {
		if now.Sub(at) < limit.per {
			recent = append(recent, at)
		}
	}
	w.history[key] = recent
	var others []time.Time
	if !limit.perProject {
		others = othersWithin(limit, w.others, now)
	}
	if len(recent)+len(others) >= limit.n {
		w.refused++
		all := slices.Concat(recent, others)
		slices.SortFunc(all, func(a, b time.Time) int { return a.Compare(b) })
		return all[len(all)-limit.n].Add(limit.per).Sub(now), false
	}
	w.history[key] = append(recent, now)
	return 0, true
}

// othersWithin returns the requests the rest of the organization sent in
// the window that ends at now: share of the limit's count, evenly spaced
// since the Unix epoch, so that every window holds the same number.
func othersWithin(limit windowLimit, share float64, now time.Time) []time.Time {
	k := int(share*float64(limit.n) + 0.5)
	if k <= 0 {
		return nil
	}
	gap := limit.per / time.Duration(k)
	last := now.UnixNano() / int64(gap)
	out := make([]time.Time, 0, k)
	for i := range int64(k) {
		out = append(out, time.Unix(0, (last-i)*int64(gap)))
	}
	return out
}

// limited serves h within group's documented limit.
func (s *Server) limited(group limitGroup, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.windows != nil {
			if wait, ok := s.windows.take(group, r.PathValue("projectId"), s.clock.Now()); !ok {
				s.writeLimited(w, wait, "Too many requests; try again later")
				return
			}
		}
		h(w, r)
	}
}

// writeLimited answers a request beyond a documented limit: the API's
// JSON error (message) with a Retry-After of wait in whole seconds, or
// plain text without one (LimitOptions.PlainText).
func (s *Server) writeLimited(w http.ResponseWriter, wait time.Duration, message string) {
	if s.plainLimits {
		writePlainTooMany(w)
		return
	}
	secs := int((wait + time.Second - 1) / time.Second)
	w.Header().Set("Retry-After", strconv.Itoa(max(secs, 1)))
	writeError(w, http.StatusTooManyRequests, message)
}

// writePlainTooMany answers 429 as Mintlify's shared key layer may: plain
// text, no Retry-After.
func writePlainTooMany(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusTooManyRequests)
	_, _ = io.WriteString(w, "Too Many Requests\n")
}

// TriggersRefused returns how many trigger requests the documented limits
// answered with 429.
func (s *Server) TriggersRefused() int {
	if s.windows == nil {
		return 0
	}
	s.windows.mu.Lock()
	defer s.windows.mu.Unlock()
	return s.windows.refused
}
