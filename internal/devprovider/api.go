package devprovider

import (
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
)

// ProjectID is the project of the demo fixtures (fakeapi.Server.SeedDemo).
const ProjectID = "proj_demo"

// DemoAgentJobID is the agent job that SeedDemo adds to ProjectID.
const DemoAgentJobID = "aj_demo_0001"

// StartAPI serves a fake API on a free loopback port (fakeapi.Serve), in
// real time, seeded with the demo fixtures. By default an export queues for
// 1 s and runs for 4 s, over 128 pages, a deployment queues for 1 s and
// builds for 3 s, and an agent job works for 5 s, then opens a pull
// request; opts come after the defaults, so they win.
func StartAPI(opts ...fakeapi.Option) (*fakeapi.Served, error) {
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
	return fakeapi.Serve(fake, fake)
}

// Env is the provider's environment for api, a fake that StartAPI serves:
// the three MINTLIFY_* variables, as NAME=value.
func Env(api *fakeapi.Served) []string {
	return []string{
		"MINTLIFY_API_KEY=" + fakeapi.DefaultAPIKey,
		"MINTLIFY_BASE_URL=" + api.URL,
		"MINTLIFY_PROJECT_ID=" + ProjectID,
	}
}
