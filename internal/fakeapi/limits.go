package fakeapi

import (
	"net/http"
	"strconv"
	"sync"
	"time"
)

// The documented rate limits of the triggers, per organization (the fake
// serves one): "Trigger update" and "Trigger automation" share 10 requests
// per 10 seconds; "Trigger preview deployment" allows 5 per minute. A
// request beyond a limit answers 429 with a Retry-After header in whole
// seconds and reaches no handler. The next static export contract allows 10
// job starts per hour; only starts that create a job count (next_export.go).
const (
	triggerLimit  = 10
	triggerWindow = 10 * time.Second
	previewLimit  = 5
	previewWindow = time.Minute
	exportWindow  = time.Hour
)

// limitGroup names the requests that share one limit.
type limitGroup string

const (
	groupTriggers limitGroup = "triggers"
	groupPreviews limitGroup = "previews"
	// groupExportStarts are the next contract's job starts.
	groupExportStarts limitGroup = "export starts"
)

// slidingWindows counts, for each group, the accepted requests of its
// window, on the server's clock.
type slidingWindows struct {
	mu      sync.Mutex
	limits  map[limitGroup]windowLimit
	history map[limitGroup][]time.Time
	refused int
}

type windowLimit struct {
	n   int
	per time.Duration
}

func documentedWindows() *slidingWindows {
	return &slidingWindows{
		limits: map[limitGroup]windowLimit{
			groupTriggers: {triggerLimit, triggerWindow},
			groupPreviews: {previewLimit, previewWindow},

			groupExportStarts: {exportStartLimit, exportWindow},
		},
		history: make(map[limitGroup][]time.Time),
	}
}

// take admits a request of group at now, or says how long to wait.
func (w *slidingWindows) take(group limitGroup, now time.Time) (time.Duration, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	limit := w.limits[group]
	recent := w.history[group][:0]
	for _, at := range w.history[group] {
		if now.Sub(at) < limit.per {
			recent = append(recent, at)
		}
	}
	w.history[group] = recent
	if len(recent) >= limit.n {
		w.refused++
		return recent[0].Add(limit.per).Sub(now), false
	}
	w.history[group] = append(recent, now)
	return 0, true
}

// limited serves h within group's documented limit.
func (s *Server) limited(group limitGroup, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.windows != nil {
			if wait, ok := s.windows.take(group, s.clock.Now()); !ok {
				secs := int((wait + time.Second - 1) / time.Second)
				w.Header().Set("Retry-After", strconv.Itoa(max(secs, 1)))
				writeError(w, http.StatusTooManyRequests, "Too many requests; try again later")
				return
			}
		}
		h(w, r)
	}
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
