package poll

import "time"

// updatedAtTracker learns a job's updatedAt, the API's record of the
// instant of its last change, to tell how long progress has been flat at
// each answer. It knows the API's clock only through the answers: the least
// gap seen between an answer's arrival (on the client's clock) and its
// updatedAt stands for the clocks' offset, and the flat time of an answer is
// its gap less that least one.
//
// updatedAt is trusted only while it moves exactly when progress does. Once
// it moves without progress (a heartbeat) or progress moves without it (a
// frozen value), or it goes back, the tracker ignores it for the rest of the
// wait: it means something else there.
type updatedAtTracker struct {
	offset      time.Duration // least gap between an answer's arrival and its updatedAt
	offsetKnown bool
	// resolution is the coarsest unit every updatedAt seen is a whole
	// multiple of: a second, or down to a millisecond.
	resolution time.Duration
	last       point // the last updatedAt seen, with its progress
	untrusted  bool
}

func newUpdatedAtTracker() updatedAtTracker {
	return updatedAtTracker{resolution: time.Second}
}

// observe learns from an answer that arrived at arrived, saying updatedAt
// (zero when the API gave none) at progress.
func (t *updatedAtTracker) observe(arrived, updatedAt time.Time, progress float64) {
	if updatedAt.IsZero() || t.untrusted {
		return
	}
	if !t.last.at.IsZero() {
		moved, stepped := updatedAt.Compare(t.last.at), progress != t.last.progress
		if moved < 0 || (moved > 0) != stepped {
			t.untrusted, t.offsetKnown = true, false
			return
		}
	}
	t.last = point{updatedAt, progress}
	for t.resolution > time.Millisecond && updatedAt.Truncate(t.resolution) != updatedAt {
		t.resolution /= 10
	}
	if gap := arrived.Sub(updatedAt); !t.offsetKnown || gap < t.offset {
		t.offset, t.offsetKnown = gap, true
	}
}

// flatFor estimates how long progress had been flat when the answer that
// arrived at arrived said updatedAt. It is false when it cannot tell: no
// updatedAt, or none trusted yet.
func (t *updatedAtTracker) flatFor(arrived, updatedAt time.Time) (time.Duration, bool) {
	if updatedAt.IsZero() || !t.offsetKnown {
		return 0, false
	}
	return max(arrived.Sub(updatedAt)-t.offset, 0), true
}
