package serve

import (
	"os"
	"testing"
)

func TestQuietUnreadLogs(t *testing.T) {
	for _, v := range logVariables {
		t.Setenv(v, "")
	}
	quietUnreadLogs()
	for _, v := range unreadLoggers {
		if got := os.Getenv(v); got != "OFF" {
			t.Errorf("with no TF_LOG variable, %s = %q, want OFF", v, got)
		}
	}

	for _, v := range logVariables {
		t.Setenv(v, "")
	}
	t.Setenv("TF_LOG", "TRACE")
	quietUnreadLogs()
	for _, v := range unreadLoggers {
		if got := os.Getenv(v); got != "" {
			t.Errorf("with TF_LOG=TRACE, %s = %q, want it left unset", v, got)
		}
	}
}
