package provider

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/contract"
)

// TestInterruptStopsPolling sends SIGINT to `terraform apply` while the
// provider polls a job that never finishes: terraform exits promptly, the
// state keeps the job (tainted, ready to resume), and polling stops.
func TestInterruptStopsPolling(t *testing.T) {
	fake := fakeapi.New(fakeapi.WithClock(clock.Real()), fakeapi.WithJobPlan(func(fakeapi.StartRequest) fakeapi.JobPlan {
		return fakeapi.JobPlan{Never: true}
	}))
	polled := make(chan struct{})
	var once sync.Once
	url := contract.Serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fake.ServeHTTP(w, r)
		if r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v1/static-export/jobs/") {
			once.Do(func() { close(polled) })
		}
	}))

	cli := newRealCLI(t, "MINTLIFY_API_KEY="+fakeapi.DefaultAPIKey, "MINTLIFY_BASE_URL="+url)
	cli.writeConfig(bundleConfig("docs.example.com", ""))
	cmd, out := cli.startUntil("mintlify_static_export_bundle.docs: Creating...", "apply", "-auto-approve", "-no-color", "-input=false")
	<-polled

	interrupted := time.Now()
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	exitAfter := time.Since(interrupted)
	pollsAtExit := fake.Count(http.MethodGet, "/v1/static-export/jobs/")
	t.Logf("terraform exited %s after SIGINT, after %d status requests", exitAfter.Round(time.Millisecond), pollsAtExit)

	if err == nil {
		t.Fatalf("an interrupted apply must fail:\n%s", out.String())
	}
	if exitAfter > 10*time.Second {
		t.Errorf("terraform took %s to exit after SIGINT, want a few seconds", exitAfter)
	}
	if !strings.Contains(out.String(), "Static Export Interrupted") || !strings.Contains(out.String(), "terraform untaint") {
		t.Errorf("the output does not explain the interruption and how to resume:\n%s", out.String())
	}

	// The state remembers the job, tainted.
	raw, err := os.ReadFile(filepath.Join(cli.dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	var state struct {
		Resources []struct {
			Type      string
			Instances []struct {
				Status     string
				Attributes map[string]any
			}
		}
	}
	if err := json.Unmarshal(raw, &state); err != nil {
		t.Fatal(err)
	}
	if len(state.Resources) != 1 || len(state.Resources[0].Instances) != 1 {
		t.Fatalf("state holds %d resources, want the bundle:\n%s", len(state.Resources), raw)
	}
	inst := state.Resources[0].Instances[0]
	if inst.Status != "tainted" || inst.Attributes["job_id"] != fake.JobIDs()[0] {
		t.Errorf("state instance: status %q, job_id %v; want tainted with job %s", inst.Status, inst.Attributes["job_id"], fake.JobIDs()[0])
	}
	if n := fake.ExportJobsStarted(); n != 1 {
		t.Errorf("export jobs started = %d, want 1", n)
	}

	// Nothing polls any more: another terraform command runs and no status
	// request arrives meanwhile.
	if _, stderr, err := cli.run("show", "-no-color"); err != nil {
		t.Fatalf("terraform show: %v\n%s", err, stderr)
	}
	if n := fake.Count(http.MethodGet, "/v1/static-export/jobs/"); n != pollsAtExit {
		t.Errorf("status requests went on after terraform exited: %d, then %d", pollsAtExit, n)
	}
}

// syncBuffer collects a process's output from several goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) WriteString(s string) { _, _ = b.Write([]byte(s)) }

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
