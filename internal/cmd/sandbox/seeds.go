package main

import (
	"fmt"
	"io"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/devprovider"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
)

// sandboxAutomation is an automation the sandbox's stand-in knows, and what
// running it there shows.
type sandboxAutomation struct {
	fakeapi.Automation
	what string
}

// sandboxAutomations are one automation of each kind the API tells apart,
// in the sandbox's project.
var sandboxAutomations = []sandboxAutomation{
	{fakeapi.Automation{ProjectID: devprovider.ProjectID, ID: "6650f1c2a0b1c2d3000000a1"},
		"on a custom schedule: runs with the default trigger"},
	{fakeapi.Automation{ProjectID: devprovider.ProjectID, ID: "6650f1c2a0b1c2d3000000b2", Trigger: fakeapi.TriggerWebhook},
		`with a Webhook trigger: runs with automation_trigger = "webhook"`},
	{fakeapi.Automation{ProjectID: devprovider.ProjectID, ID: "6650f1c2a0b1c2d3000000c3", Inactive: true},
		"inactive: refused (400)"},
	{fakeapi.Automation{ProjectID: devprovider.ProjectID, ID: "6650f1c2a0b1c2d3000000d4", Trigger: fakeapi.TriggerEvent},
		"run by an event (a push): neither call runs it (400, 404 by webhook)"},
}

// deploymentModes are what -deployments makes every deployment and preview
// of the sandbox do.
var deploymentModes = map[string]fakeapi.DeploymentPlan{
	"succeed": {QueuedFor: time.Second, RunFor: 3 * time.Second, Logs: []string{"Building 128 pages", "Deployed"}},
	"fail": {QueuedFor: time.Second, RunFor: 3 * time.Second, Fail: true, Summary: "Build failed: broken link in guides/setup.mdx",
		Logs: []string{"Building 128 pages", "Error: broken link /guides/missing in guides/setup.mdx"}},
	"slow": {QueuedFor: 30 * time.Second, RunFor: 5 * time.Minute, Logs: []string{"Building 128 pages", "Deployed"}},
}

// seeds are the stand-in's options for the sandbox: its automations, and
// deployments that behave as mode says.
func seeds(mode string) ([]fakeapi.Option, error) {
	plan, ok := deploymentModes[mode]
	if !ok {
		return nil, fmt.Errorf("-deployments %q: use succeed, fail or slow", mode)
	}
	opts := []fakeapi.Option{fakeapi.WithDeployments(fakeapi.DeploymentOptions{Plan: func(fakeapi.DeploymentRequest) fakeapi.DeploymentPlan { return plan }})}
	for _, a := range sandboxAutomations {
		opts = append(opts, fakeapi.WithAutomations(a.Automation))
	}
	return opts, nil
}

// deploymentsSeen says when an apply sees a deployment end: the first
// deployment of a resource is first asked about after Mintlify's 10-second
// loop (poll.Foretold without history), later ones once they are due.
const deploymentsSeen = "; an apply sees the end up to 10 seconds\n  later the first time (Mintlify's 10-second loop), within a second once the resource has deployed"

// printSeeds lists what the stand-in knows besides exports.
func printSeeds(out io.Writer, mode string) {
	_, _ = fmt.Fprintf(out, "\n  Deployments and previews %s (-deployments: succeed, fail, slow). Automations of %s:\n",
		map[string]string{"succeed": "succeed after 4 seconds", "fail": "fail after 4 seconds",
			"slow": "take about 5.5 minutes"}[mode]+deploymentsSeen, devprovider.ProjectID)
	for _, a := range sandboxAutomations {
		_, _ = fmt.Fprintf(out, "    %s  %s\n", a.ID, a.what)
	}
}
