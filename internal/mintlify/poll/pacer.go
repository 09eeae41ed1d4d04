package poll

import (
	"slices"
	"sync"
	"time"
)

// Pacing of a client's status requests: additive increase, multiplicative
// decrease of their combined rate, as TCP does with its window.
const (
	// paceWindow is how far back the combined request rate is measured.
	paceWindow = 10 * time.Second
	// paceHold: pushbacks within this long of the last cut are the same
	// congestion, and do not cut again.
	paceHold = 2 * time.Second
	// paceCalm after the last cut, the allowed rate grows by rateGrowth
	// requests a second, every second; past maxPaceRate it is no longer
	// limited.
	paceCalm    = 5 * time.Second
	rateGrowth  = 0.5
	minPaceRate = 1.0
	maxPaceRate = 20.0
)

// Pacer spaces the status requests of every wait of one client, so that
// together they yield to an API that pushes back and leave room for the
// calls that matter more, such as starting an export. It hands out request
// times: as asked until the API pushes back, then at least 1/rate apart.
// Each pushback halves the rate measured over the last paceWindow (once per
// paceHold, never below minPaceRate); paceCalm after the last cut the rate
// grows again until it is no longer limited. What counts as a pushback
// (a 429, an answer slowed by one) is the caller's to judge. The zero value
// is ready to use, and is safe for concurrent use.
type Pacer struct {
	mu   sync.Mutex
	rate float64   // requests a second allowed at the last cut; 0 for no limit
	cut  time.Time // when the rate was last cut
	// times handed out, sorted: the recent ones measure the combined rate,
	// the upcoming ones are kept clear of.
	times []time.Time
}

// rateAt is the allowed rate at now, 0 for no limit: the last cut's, grown
// by rateGrowth a second after a calm spell.
func (p *Pacer) rateAt(now time.Time) float64 {
	if p.rate == 0 {
		return 0
	}
	rate := p.rate
	if calm := now.Sub(p.cut) - paceCalm; calm > 0 {
		rate += rateGrowth * calm.Seconds()
	}
	if rate > maxPaceRate {
		return 0
	}
	return rate
}

// Pushback halves the combined rate of the last paceWindow, unless the
// rate was cut within paceHold.
func (p *Pacer) Pushback(now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.rate != 0 && now.Sub(p.cut) < paceHold {
		return
	}
	recent := 0
	for _, t := range p.times {
		if !t.Before(now.Add(-paceWindow)) && !t.After(now) {
			recent++
		}
	}
	measured := float64(recent) / paceWindow.Seconds()
	if allowed := p.rateAt(now); allowed != 0 {
		measured = min(measured, allowed)
	}
	p.rate, p.cut = max(measured/2, minPaceRate), now
}

// Slot returns the earliest moment at or after want that is at least
// 1/rate away from every request time already handed out, and books it.
func (p *Pacer) Slot(now, want time.Time) time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	stale := 0
	for stale < len(p.times) && p.times[stale].Before(now.Add(-paceWindow)) {
		stale++
	}
	p.times = p.times[stale:]
	at, i := want, 0
	if rate := p.rateAt(now); rate != 0 {
		gap := time.Duration(float64(time.Second) / rate)
		for ; i < len(p.times); i++ {
			t := p.times[i]
			if !at.Add(gap).After(t) {
				break // at is a gap before t, and so before every later time
			}
			if at.Before(t.Add(gap)) {
				at = t.Add(gap)
			}
		}
	} else {
		i, _ = slices.BinarySearchFunc(p.times, at, time.Time.Compare)
	}
	p.times = slices.Insert(p.times, i, at)
	return at
}
