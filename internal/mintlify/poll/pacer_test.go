package poll

import (
	"testing"
	"time"
)

// pacerOp is one call on a pacer at now (after start): slot asks for a
// request time (want after start) and expects got; pushback expects the
// allowed rate after it; rate expects rateAt(now).
type pacerOp struct {
	kind      string
	now, want time.Duration
	got       time.Duration
	rate      float64
}

// twentyASecond is ten seconds of requests 50 ms apart, each slotted as
// asked.
func twentyASecond() []pacerOp {
	var ops []pacerOp
	for i := range 200 {
		at := time.Duration(i) * 50 * time.Millisecond
		ops = append(ops, pacerOp{kind: "slot", now: at, want: at, got: at})
	}
	return ops
}

// TestPacer: no spacing until the API pushes back; then request times at
// least 1/rate apart, the rate halved by each pushback (once per hold) and
// growing back after a calm spell.
func TestPacer(t *testing.T) {
	t.Parallel()
	ms, s := time.Millisecond, time.Second
	cases := []struct {
		name string
		ops  []pacerOp
	}{
		{"unpaced before any pushback", twentyASecond()},
		{"a pushback halves the measured rate, once per hold", append(twentyASecond(),
			pacerOp{kind: "pushback", now: 10 * s, rate: 10},
			pacerOp{kind: "pushback", now: 11 * s, rate: 10}, // the same congestion
		)},
		{"requests after a pushback are 1/rate apart", append(twentyASecond(),
			pacerOp{kind: "pushback", now: 10 * s, rate: 10},
			// The last unpaced request was 50 ms before now.
			pacerOp{kind: "slot", now: 10 * s, want: 10 * s, got: 10*s + 50*ms},
			pacerOp{kind: "slot", now: 10 * s, want: 10 * s, got: 10*s + 150*ms},
			pacerOp{kind: "slot", now: 10 * s, want: 10*s + 50*ms, got: 10*s + 250*ms},
			pacerOp{kind: "slot", now: 10 * s, want: 11 * s, got: 11 * s},
			pacerOp{kind: "slot", now: 10 * s, want: 10*s + 950*ms, got: 11*s + 100*ms},
		)},
		{"the rate grows back after a calm spell, then is unlimited", append(twentyASecond(),
			pacerOp{kind: "pushback", now: 10 * s, rate: 10},
			pacerOp{kind: "rate", now: 10*s + paceCalm, rate: 10},
			pacerOp{kind: "rate", now: 10*s + paceCalm + 4*s, rate: 12},
			pacerOp{kind: "rate", now: 10*s + paceCalm + time.Minute, rate: 0},
		)},
		{"a pushback with nothing recent sets the floor", []pacerOp{
			{kind: "pushback", now: 0, rate: minPaceRate},
			{kind: "slot", now: 0, want: 0, got: 0},
			{kind: "slot", now: 0, want: 0, got: s},
		}},
		{"a second pushback after the hold halves again", append(twentyASecond(),
			pacerOp{kind: "pushback", now: 10 * s, rate: 10},
			pacerOp{kind: "pushback", now: 10*s + paceHold, rate: 5},
		)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := &Pacer{}
			for i, op := range c.ops {
				now := start.Add(op.now)
				switch op.kind {
				case "slot":
					if got := p.Slot(now, start.Add(op.want)).Sub(start); got != op.got {
						t.Fatalf("op %d: slot(%s, %s) = %s, want %s", i, op.now, op.want, got, op.got)
					}
				case "pushback":
					if p.Pushback(now); p.rate != op.rate {
						t.Fatalf("op %d: rate after pushback at %s = %v, want %v", i, op.now, p.rate, op.rate)
					}
				case "rate":
					if got := p.rateAt(now); got != op.rate {
						t.Fatalf("op %d: rateAt(%s) = %v, want %v", i, op.now, got, op.rate)
					}
				}
			}
		})
	}
}
