package main

import (
	"os"
	"testing"
)

func TestQuietUnreadFrameworkLogs(t *testing.T) {
	for _, v := range logVariables {
		t.Setenv(v, "")
	}
	quietUnreadFrameworkLogs()
	if got := os.Getenv("TF_LOG_SDK_FRAMEWORK"); got != "OFF" {
		t.Errorf("with no TF_LOG variable, TF_LOG_SDK_FRAMEWORK = %q, want OFF", got)
	}

	for _, v := range logVariables {
		t.Setenv(v, "")
	}
	t.Setenv("TF_LOG", "TRACE")
	quietUnreadFrameworkLogs()
	if got := os.Getenv("TF_LOG_SDK_FRAMEWORK"); got != "" {
		t.Errorf("with TF_LOG=TRACE, TF_LOG_SDK_FRAMEWORK = %q, want it left unset", got)
	}
}
