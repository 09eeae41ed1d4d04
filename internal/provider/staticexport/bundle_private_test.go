package staticexport

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// TestPrivateStateBytes: the private state of each family is the JSON
// object that states written before the families had their own facts hold,
// byte for byte, and reads back to the same value.
func TestPrivateStateBytes(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		name  string
		state any
		want  string
	}{
		{"bundle", core.PrivateState[bundleFacts]{Version: 1, PlannedAction: actionRenew, PlannedAt: at,
			Facts: bundleFacts{JobGone: true, LinkGeneratedAt: at}},
			`{"version":1,"planned_action":"renew","planned_at":"2026-05-01T12:00:00Z","job_gone":true,"link_generated_at":"2026-05-01T12:00:00Z"}`},
		{"bundle, no facts", core.PrivateState[bundleFacts]{Version: 1, PlannedAction: core.ActionResume},
			`{"version":1,"planned_action":"resume"}`},
		{"archive", core.PrivateState[archiveFacts]{Version: 1, Facts: archiveFacts{FileDrift: &fileVerdict{Kind: fileChanged, SHA256: "ab"}}},
			`{"version":1,"file_drift":{"kind":"changed","sha256":"ab"}}`},
		{"agent job", core.PrivateState[struct{}]{Version: 1, PlannedAction: core.ActionResume},
			`{"version":1,"planned_action":"resume"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			raw, err := json.Marshal(c.state)
			if err != nil || string(raw) != c.want {
				t.Fatalf("got %s (%v), want %s", raw, err, c.want)
			}
			back, _ := json.Marshal(roundTrip(t, c.state, raw))
			if string(back) != c.want {
				t.Errorf("read back as %s", back)
			}
		})
	}
}

// roundTrip reads raw into a new value of state's type.
func roundTrip(t *testing.T, state any, raw []byte) any {
	t.Helper()
	var err error
	switch state.(type) {
	case core.PrivateState[bundleFacts]:
		var p core.PrivateState[bundleFacts]
		err = json.Unmarshal(raw, &p)
		state = p
	case core.PrivateState[archiveFacts]:
		var p core.PrivateState[archiveFacts]
		err = json.Unmarshal(raw, &p)
		state = p
	case core.PrivateState[struct{}]:
		var p core.PrivateState[struct{}]
		err = json.Unmarshal(raw, &p)
		state = p
	}
	if err != nil {
		t.Fatal(err)
	}
	return state
}
