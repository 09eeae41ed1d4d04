package staticexport

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/contract"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// TestInterruptRemovesThePartialArchive sends SIGINT to `terraform apply`
// while the provider, a real plugin process, is in the middle of a
// download: terraform exits promptly, with nothing at output_path and no
// partial download beside it.
func TestInterruptRemovesThePartialArchive(t *testing.T) {
	providertest.CLIContract(t, "resource.mintlify_static_export_archive")
	fake := fakeapi.New(
		fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan { return fakeapi.JobPlan{} }}),
		providertest.SizedArchives(8<<20))
	// The download sends its first MiB, then nothing until the client goes
	// away: the provider is mid-download for as long as the test needs.
	midway := make(chan struct{})
	var once sync.Once
	url := contract.Serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/bundles/") {
			fake.ServeHTTP(w, r)
			return
		}
		fake.ServeHTTP(&stallingWriter{ResponseWriter: w, left: 1 << 20, ctx: r.Context(), stalled: func() { once.Do(func() { close(midway) }) }}, r)
	}))
	c, err := mintlify.New(fakeapi.DefaultAPIKey, mintlify.WithBaseURL(url))
	if err != nil {
		t.Fatal(err)
	}
	job, err := c.StartStaticExport(t.Context(), mintlify.StartStaticExportRequest{Domain: "docs.example.com"})
	if err != nil {
		t.Fatal(err)
	}

	cli := providertest.BuiltCLI(t, providertest.WithEnv("MINTLIFY_API_KEY="+fakeapi.DefaultAPIKey, "MINTLIFY_BASE_URL="+url))
	dir := filepath.Join(t.TempDir(), "build")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "docs-bundle.tar.gz")
	cli.WriteConfig(providertest.ArchiveConfig(`"`+job.JobID+`"`, out))
	apply := cli.Start("apply", "-auto-approve", "-no-color", "-input=false")
	apply.WaitFor("mintlify_static_export_archive.docs: Creating...")
	select {
	case <-midway:
	case <-apply.Done():
		res := apply.Wait()
		t.Fatalf("terraform ended (exit %d) before the download started:\n%s", res.Exit, res.Output)
	}
	// The partial file appears when the provider reads the first bytes,
	// which may be just after the server has sent them.
	partial := waitForEntry(t, dir, ".docs-bundle.tar.gz.*.partial", apply.Done())
	if len(partial) != 1 {
		t.Fatalf("mid-download, %s holds %v; want one partial download", dir, partial)
	}

	interrupted := time.Now()
	apply.Interrupt()
	res := apply.Wait()
	exitAfter := time.Since(interrupted)
	t.Logf("terraform exited %s after SIGINT", exitAfter.Round(time.Millisecond))
	if res.Exit == 0 {
		t.Fatalf("an interrupted apply must fail:\n%s", res.Output)
	}
	if exitAfter > 10*time.Second {
		t.Errorf("terraform took %s to exit after SIGINT, want a few seconds", exitAfter)
	}
	if !strings.Contains(res.Output, "Archive Download Interrupted") {
		t.Errorf("the output does not explain the interruption:\n%s", res.Output)
	}
	if err := providertest.ExpectOnlyFiles(dir); err != nil {
		t.Error(err)
	}
}

// stallingWriter passes on the first left bytes of an answer, then stalls
// until the client goes away.
type stallingWriter struct {
	http.ResponseWriter
	left    int
	ctx     context.Context
	stalled func()
}

func (s *stallingWriter) Write(p []byte) (int, error) {
	if len(p) <= s.left {
		s.left -= len(p)
		return s.ResponseWriter.Write(p)
	}
	n, _ := s.ResponseWriter.Write(p[:s.left])
	s.left = 0
	_ = http.NewResponseController(s.ResponseWriter).Flush()
	s.stalled()
	<-s.ctx.Done()
	return n, s.ctx.Err()
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (s *stallingWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }
