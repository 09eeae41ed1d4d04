package mintlify

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/fakeapitest"
)

func TestLogsNameRetriesAndHoldNoSecrets(t *testing.T) {
	t.Parallel()
	env := fakeapitest.New(t, fakeapitest.Unchecked(), fakeapitest.Fake(fakeapi.WithFaults(fakeapi.FaultRule{
		Match: fakeapi.IsBundleRequest, Count: 2, Faults: []fakeapi.Fault{fakeapi.ServerError(502), fakeapi.DropConnection()},
	})))
	var logs recordingLogger
	c, err := New(fakeapi.DefaultAPIKey, WithBaseURL(env.URL), WithClock(env.Clock), WithLogger(&logs))
	if err != nil {
		t.Fatal(err)
	}
	job := mustStart(t, c)
	if _, err := c.WaitForStaticExport(t.Context(), job.JobID); err != nil {
		t.Fatal(err)
	}
	b, err := c.GenerateBundle(t.Context(), job.JobID)
	if err != nil {
		t.Fatal(err)
	}
	out := logs.String()
	for _, want := range []string{
		"performing request",            // go-retryablehttp's own log
		"Retrying Mintlify API request", // ours, with the reason
		"502 Bad Gateway",
		"route=POST /v1/static-export/jobs/" + job.JobID + "/bundle",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("logs lack %q:\n%s", want, out)
		}
	}
	for _, secret := range []string{fakeapi.DefaultAPIKey, "Bearer", b.BundleURL, "X-Amz-Signature"} {
		if strings.Contains(out, secret) {
			t.Errorf("logs contain %q:\n%s", secret, out)
		}
	}
}

// recordingLogger keeps every entry as a line of text.
type recordingLogger struct {
	mu    sync.Mutex
	lines []string
}

func (l *recordingLogger) log(level, msg string, fields map[string]any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	line := level + " " + msg
	for k, v := range fields {
		line += fmt.Sprintf(" %s=%v", k, v)
	}
	l.lines = append(l.lines, line)
}

func (l *recordingLogger) Debug(_ context.Context, msg string, f map[string]any) {
	l.log("DEBUG", msg, f)
}

func (l *recordingLogger) Info(_ context.Context, msg string, f map[string]any) {
	l.log("INFO", msg, f)
}

func (l *recordingLogger) Warn(_ context.Context, msg string, f map[string]any) {
	l.log("WARN", msg, f)
}

func (l *recordingLogger) Error(_ context.Context, msg string, f map[string]any) {
	l.log("ERROR", msg, f)
}

func (l *recordingLogger) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

func (l *recordingLogger) contains(s string) bool { return strings.Contains(l.String(), s) }
