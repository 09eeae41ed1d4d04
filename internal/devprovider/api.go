package devprovider

import (
	"net"
	"net/http"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
)

// ProjectID is the project of the demo fixtures (fakeapi.Server.SeedDemo).
const ProjectID = "proj_demo"

// DemoAgentJobID is the agent job that SeedDemo adds to ProjectID.
const DemoAgentJobID = "aj_demo_0001"

// API is the fake Mintlify API served on a loopback port, in real time.
type API struct {
	*fakeapi.Server
	// URL is the base URL, for MINTLIFY_BASE_URL.
	URL   string
	close func() error
}

// StartAPI serves a fake API on a free loopback port, seeded with the demo
// fixtures. By default an export queues for 1 s and runs for 4 s, over 128
// pages, a deployment queues for 1 s and builds for 3 s, and an agent job
// works for 5 s, then opens a pull request; opts
// come after the defaults, so they win.
func StartAPI(opts ...fakeapi.Option) (*API, error) {
	defaults := []fakeapi.Option{
		fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Plan: func(fakeapi.StartRequest) fakeapi.JobPlan {
			return fakeapi.JobPlan{QueueFor: time.Second, RunFor: 4 * time.Second, Pages: 128}
		}}),
		fakeapi.WithDeployments(fakeapi.DeploymentOptions{Plan: func(fakeapi.DeploymentRequest) fakeapi.DeploymentPlan {
			return fakeapi.DeploymentPlan{QueuedFor: time.Second, RunFor: 3 * time.Second,
				Logs: []string{"Building 128 pages", "Deployed"}}
		}}),
		fakeapi.WithAgentJobs(fakeapi.AgentJobOptions{Plan: func(fakeapi.AgentJobRequest) fakeapi.AgentJobPlan {
			return fakeapi.AgentJobPlan{ActiveFor: 5 * time.Second}
		}}),
	}
	fake := fakeapi.New(append(defaults, opts...)...)
	fake.SeedDemo()
	url, closeFn, err := Serve(fake)
	if err != nil {
		return nil, err
	}
	return &API{Server: fake, URL: url, close: closeFn}, nil
}

// Env is the provider's environment for this fake: the three MINTLIFY_*
// variables, as NAME=value.
func (f *API) Env() []string {
	return []string{
		"MINTLIFY_API_KEY=" + fakeapi.DefaultAPIKey,
		"MINTLIFY_BASE_URL=" + f.URL,
		"MINTLIFY_PROJECT_ID=" + ProjectID,
	}
}

// Close stops serving and closes every connection.
func (f *API) Close() error { return f.close() }

// Serve serves h on a free port of 127.0.0.1 and returns its base URL and
// the function that stops it.
func Serve(h http.Handler) (url string, closeFn func() error, err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), srv.Close, nil
}
