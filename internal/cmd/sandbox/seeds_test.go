package main

import (
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/devprovider"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify/poll"
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

// TestSandboxSaysWhenAnApplySeesADeployment: the times the sandbox prints
// are those of its stand-in and of the provider's first wait: a deployment
// ends after 4 seconds, and the first status request of a resource's first
// deployment goes out 10 seconds after the trigger, so that apply takes 10.
func TestSandboxSaysWhenAnApplySeesADeployment(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"succeed", "fail"} {
		if p := deploymentModes[mode]; p.QueuedFor+p.RunFor != 4*time.Second {
			t.Errorf("-deployments %s: a deployment ends after %s, and the sandbox says 4 seconds", mode, p.QueuedFor+p.RunFor)
		}
	}
	if first, _ := (poll.Foretold{Fresh: true}).FirstDelay(); first != 10*time.Second {
		t.Errorf("the first status request of a first deployment goes out after %s, and the sandbox says 10 seconds", first)
	}
	var out strings.Builder
	printSeeds(&out, "succeed")
	said := strings.Join(strings.Fields(out.String()), " ")
	for _, want := range []string{"succeed after 4 seconds", "an apply sees the end up to 10 seconds later the first time"} {
		if !strings.Contains(said, want) {
			t.Errorf("the sandbox does not say %q:\n%s", want, out.String())
		}
	}
}
