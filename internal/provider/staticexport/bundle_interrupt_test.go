package staticexport

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/contract"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// TestInterruptStopsPolling sends SIGINT to `terraform apply` while the
// provider polls a job that never finishes: terraform exits promptly, the
// state keeps the job (tainted, ready to resume), and polling stops.
func TestInterruptStopsPolling(t *testing.T) {
	providertest.CLIContract(t, "resource.mintlify_static_export_bundle")
	fake := fakeapi.New(fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan {
		return fakeapi.JobPlan{Never: true}
	}}))
	polled := make(chan struct{})
	var once sync.Once
	url := contract.Serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fake.ServeHTTP(w, r)
		if r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v1/static-export/jobs/") {
			once.Do(func() { close(polled) })
		}
	}))

	cli := providertest.BuiltCLI(t, providertest.WithEnv("MINTLIFY_API_KEY="+fakeapi.DefaultAPIKey, "MINTLIFY_BASE_URL="+url))
	cli.WriteConfig(providertest.BundleConfig("docs.example.com", ""))
	apply := cli.Start("apply", "-auto-approve", "-no-color", "-input=false")
	apply.WaitFor("mintlify_static_export_bundle.docs: Creating...")
	<-polled

	interrupted := time.Now()
	apply.Interrupt()
	res := apply.Wait()
	exitAfter := time.Since(interrupted)
	pollsAtExit := fake.Count(http.MethodGet, "/v1/static-export/jobs/")
	t.Logf("terraform exited %s after SIGINT, after %d status requests", exitAfter.Round(time.Millisecond), pollsAtExit)

	if res.Exit == 0 {
		t.Fatalf("an interrupted apply must fail:\n%s", res.Output)
	}
	if exitAfter > 10*time.Second {
		t.Errorf("terraform took %s to exit after SIGINT, want a few seconds", exitAfter)
	}
	if !strings.Contains(res.Output, "Static Export Interrupted") || !strings.Contains(res.Output, "Run `terraform apply` again") {
		t.Errorf("the output does not explain the interruption and how to resume:\n%s", res.Output)
	}

	// The state remembers the job, tainted.
	if n := cli.Resources(); n != 1 {
		t.Fatalf("state holds %d resources, want the bundle:\n%s", n, res.Output)
	}
	inst := cli.Instance("mintlify_static_export_bundle.docs")
	if !inst.Tainted || inst.Attr("job_id") != fake.JobIDs()[0] {
		t.Errorf("state instance: tainted %v, job_id %q; want tainted with job %s", inst.Tainted, inst.Attr("job_id"), fake.JobIDs()[0])
	}
	if n := fake.ExportJobsStarted(); n != 1 {
		t.Errorf("export jobs started = %d, want 1", n)
	}

	// Nothing polls any more: another terraform command runs and no status
	// request arrives meanwhile.
	cli.MustRun("show", "-no-color")
	if n := fake.Count(http.MethodGet, "/v1/static-export/jobs/"); n != pollsAtExit {
		t.Errorf("status requests went on after terraform exited: %d, then %d", pollsAtExit, n)
	}
}
