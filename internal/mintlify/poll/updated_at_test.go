package poll

import (
	"testing"
	"time"
)

// TestUpdatedAtTracker feeds the tracker hand-written answers (when each
// arrived, its updatedAt and progress) and checks, after each, how long it
// says progress had been flat and the resolution it learned.
func TestUpdatedAtTracker(t *testing.T) {
	t.Parallel()
	ms, s := time.Millisecond, time.Second
	// answer is one status answer: arrival and updatedAt after start (a
	// negative updatedAt for none), progress; then what flatFor says.
	type answer struct {
		arrived, updated time.Duration
		progress         float64
		flat             time.Duration
		known            bool
	}
	cases := []struct {
		name       string
		answers    []answer
		resolution time.Duration
	}{
		{"no updatedAt tells nothing", []answer{
			{arrived: s, updated: -1, progress: 10},
			{arrived: 2 * s, updated: -1, progress: 20},
		}, s},
		{"the least gap is the offset; more is time flat", []answer{
			// The API's clock runs 300 ms behind; each answer comes 100 ms
			// after the step, then the job stalls at 30 %.
			{arrived: 1100 * ms, updated: 700 * ms, progress: 10, flat: 0, known: true},
			{arrived: 2100 * ms, updated: 1700 * ms, progress: 20, flat: 0, known: true},
			{arrived: 3100 * ms, updated: 2700 * ms, progress: 30, flat: 0, known: true},
			{arrived: 9100 * ms, updated: 2700 * ms, progress: 30, flat: 6 * s, known: true},
		}, 100 * ms},
		{"a closer answer lowers the offset", []answer{
			{arrived: 2 * s, updated: s, progress: 10, flat: 0, known: true},
			{arrived: 2500 * ms, updated: 2 * s, progress: 20, flat: 0, known: true},
			{arrived: 4 * s, updated: 2 * s, progress: 20, flat: 1500 * ms, known: true},
		}, s},
		{"whole seconds, then milliseconds", []answer{
			{arrived: 2 * s, updated: s, progress: 10, known: true},
			{arrived: 3 * s, updated: 2*s + 5*ms, progress: 11, known: true},
		}, ms},
		{"a heartbeat (moves without progress) is ignored from then on", []answer{
			{arrived: s, updated: s, progress: 10, known: true},
			{arrived: 2 * s, updated: 2 * s, progress: 10},
			{arrived: 3 * s, updated: 3 * s, progress: 20},
		}, s},
		{"a frozen value (progress moves without it) is ignored from then on", []answer{
			{arrived: s, updated: 0, progress: 10, flat: 0, known: true},
			{arrived: 2 * s, updated: 0, progress: 20},
			{arrived: 3 * s, updated: 0, progress: 20},
		}, s},
		{"an updatedAt that goes back is ignored from then on", []answer{
			{arrived: 2 * s, updated: 2 * s, progress: 10, known: true},
			{arrived: 3 * s, updated: s, progress: 20},
		}, s},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tr := newUpdatedAtTracker()
			for i, a := range c.answers {
				arrived := start.Add(a.arrived)
				var updated time.Time
				if a.updated >= 0 {
					updated = start.Add(a.updated)
				}
				tr.observe(arrived, updated, a.progress)
				if flat, known := tr.flatFor(arrived, updated); flat != a.flat || known != a.known {
					t.Errorf("answer %d: flatFor = %s, %v; want %s, %v", i, flat, known, a.flat, a.known)
				}
			}
			if tr.resolution != c.resolution {
				t.Errorf("resolution %s, want %s", tr.resolution, c.resolution)
			}
		})
	}
}
