package staticexport

import (
	"strings"
	"testing"
	"time"
)

func TestRenewalReason(t *testing.T) {
	t.Parallel()
	gen := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	twoHours := linkState{GeneratedAt: gen, ExpiresAt: gen.Add(2 * time.Hour)}
	noGen := linkState{ExpiresAt: gen.Add(2 * time.Hour)}
	cases := []struct {
		name        string
		link        linkState
		renewBefore time.Duration
		at          time.Duration // since gen
		want        string        // substring; "" means fresh
	}{
		{"fresh, renew_before 1h", twoHours, time.Hour, 0, ""},
		{"fresh, renew_before 3h", twoHours, 3 * time.Hour, 0, "within `renew_before` (3h0m0s)"},
		{"59m left, renew_before 1h", twoHours, time.Hour, 61 * time.Minute, "expires in 59m0s"},
		{"default, just generated", twoHours, 0, 0, ""},
		{"default, 31m left", twoHours, 0, 89 * time.Minute, ""},
		{"default, 30m left", twoHours, 0, 90 * time.Minute, ""},
		{"default, 29m left", twoHours, 0, 91 * time.Minute, "less than a quarter of its 2h0m0s lifetime"},
		{"default, expired", twoHours, 0, 2 * time.Hour, "expired at 2026-11-21T11:00:00Z"},
		{"renew_before, expired", twoHours, time.Minute, 3 * time.Hour, "expired"},
		{"unknown lifetime, not expired", noGen, 0, 119 * time.Minute, ""},
		{"unknown lifetime, expired", noGen, 0, 120 * time.Minute, "expired"},
	}
	for _, c := range cases {
		got := renewalReason(c.link, c.renewBefore, gen.Add(c.at))
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: renewalReason = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestRenewsEveryRun(t *testing.T) {
	t.Parallel()
	gen := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	link := linkState{GeneratedAt: gen, ExpiresAt: gen.Add(2 * time.Hour)}
	for rb, want := range map[time.Duration]bool{0: false, time.Hour: false, 2 * time.Hour: true, 3 * time.Hour: true} {
		if got := renewsEveryRun(link, rb); got != want {
			t.Errorf("renewsEveryRun(2h link, %s) = %v, want %v", rb, got, want)
		}
	}
	if renewsEveryRun(linkState{ExpiresAt: link.ExpiresAt}, 3*time.Hour) {
		t.Error("an unknown lifetime cannot prove that every run renews")
	}
}

// TestGuideSchedulesRenewInTime checks the schedules that the guides
// recommend ("Running in CI", "Keeping the bundle link fresh"): with 24-hour
// links, runs every 4 hours that start up to 2 hours late, with
// `renew_before = "6h"` or the default, renew every link before it expires.
// The 6-hourly schedule that the guide used to recommend does not. Runs
// every 8 hours need the guide's `renew_before = "12h"`: the default is not
// enough for them.
func TestGuideSchedulesRenewInTime(t *testing.T) {
	t.Parallel()
	const lifetime = 24 * time.Hour
	cases := []struct {
		name        string
		every, late time.Duration
		renewBefore time.Duration
		wantExpired bool
	}{
		{"every 4h, renew_before 6h", 4 * time.Hour, 2*time.Hour - time.Minute, 6 * time.Hour, false},
		{"every 4h, default", 4 * time.Hour, 2*time.Hour - time.Minute, 0, false},
		{"every 6h, renew_before 6h", 6 * time.Hour, time.Minute, 6 * time.Hour, true},
		{"every 8h, default", 8 * time.Hour, 2*time.Hour - time.Minute, 0, true},
		{"every 8h, renew_before 12h", 8 * time.Hour, 2*time.Hour - time.Minute, 12 * time.Hour, false},
	}
	for _, c := range cases {
		start := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
		link := linkState{GeneratedAt: start, ExpiresAt: start.Add(lifetime)}
		expired := 0
		// Thirty days of runs; every third run is on time, the next one as
		// late as can be, the next one half as late.
		for k := 1; k <= int(30*24*time.Hour/c.every); k++ {
			late := []time.Duration{0, c.late, c.late / 2}[k%3]
			now := start.Add(time.Duration(k)*c.every + late)
			reason := renewalReason(link, c.renewBefore, now)
			if strings.Contains(reason, "expired") {
				expired++
			}
			if reason != "" {
				link = linkState{GeneratedAt: now, ExpiresAt: now.Add(lifetime)}
			}
		}
		if (expired > 0) != c.wantExpired {
			t.Errorf("%s: %d runs found the link expired, want expired: %v", c.name, expired, c.wantExpired)
		}
	}
}

func TestShortDuration(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{
		time.Hour:                       "1h",
		59*time.Minute + 59*time.Second: "1h",
		15 * time.Minute:                "15m",
		90 * time.Minute:                "1h30m",
		45 * time.Second:                "45s",
		6*time.Hour + 20*time.Second:    "6h",
	} {
		if got := shortDuration(d); got != want {
			t.Errorf("shortDuration(%s) = %q, want %q", d, got, want)
		}
	}
}

// The warning says what a renew_before at least the lifetime causes, and
// what to do instead, in values a user can paste.
func TestRenewsEveryRunWarning(t *testing.T) {
	t.Parallel()
	gen := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	d := renewsEveryRunWarning(linkState{GeneratedAt: gen, ExpiresAt: gen.Add(time.Hour)}, 6*time.Hour)
	words := strings.Join(strings.Fields(d.Detail()), " ")
	for _, want := range []string{
		"`renew_before` (6h) is at least the link's whole lifetime (1h)",
		"generates a new link and upgrades any Helm release that uses it",
		"Remove `renew_before`", "a quarter of its lifetime (15m)", "`renew_before = \"30m\"`",
	} {
		if !strings.Contains(words, want) {
			t.Errorf("the warning lacks %q:\n%s", want, d.Detail())
		}
	}
	if d.Summary() != "Link Renewed On Every Run" {
		t.Errorf("summary = %q", d.Summary())
	}
}
