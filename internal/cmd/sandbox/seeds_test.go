package main

import (
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/devprovider"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// TestSandboxSeeds: the sandbox's stand-in, with -deployments fail, runs
// its scheduled automation by the default trigger and its webhook one by
// the webhook, refuses the inactive and the event-driven one, and ends a
// deployment in failure with its summary; an unknown mode is refused,
// naming the three.
func TestSandboxSeeds(t *testing.T) {
	t.Parallel()
	if _, err := seeds("flaky"); err == nil || !strings.Contains(err.Error(), "succeed, fail or slow") {
		t.Fatalf("seeds(flaky) = %v, want the three modes named", err)
	}
	opts, err := seeds("fail")
	if err != nil {
		t.Fatal(err)
	}
	api, err := devprovider.StartAPI(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = api.Close() })
	c, err := mintlify.New(fakeapi.DefaultAPIKey, mintlify.WithBaseURL(api.URL))
	if err != nil {
		t.Fatal(err)
	}
	ctx, p := t.Context(), devprovider.ProjectID
	if _, err := c.TriggerAutomation(ctx, p, sandboxAutomations[0].ID); err != nil {
		t.Errorf("the scheduled automation: %v", err)
	}
	if _, err := c.TriggerAutomationWebhook(ctx, p, sandboxAutomations[1].ID); err != nil {
		t.Errorf("the webhook automation: %v", err)
	}
	for _, a := range sandboxAutomations[2:] {
		if _, err := c.TriggerAutomation(ctx, p, a.ID); mintlify.StatusCode(err) != 400 {
			t.Errorf("automation %s (%s): err = %v, want a 400", a.ID, a.what, err)
		}
	}
	id, err := c.TriggerDeployment(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitForDeployment(ctx, id); err == nil || !strings.Contains(err.Error(), "broken link") {
		t.Errorf("the deployment's wait: err = %v, want its failure with the mode's summary", err)
	}
}
