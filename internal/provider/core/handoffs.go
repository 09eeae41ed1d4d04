package core

import (
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
)

// A create that stops waiting for its job early (a timeout, Ctrl-C) returns
// an error, so Terraform taints the resource, and the next apply replaces
// it: it destroys the tainted object, then creates a new one that knows
// nothing of the old. Left at that, the replacement would start a second
// job while the first still runs.
//
// Both halves of the replacement run in one apply, in one provider
// process, the destroy first (without create_before_destroy). So the
// destroy, which only forgets the job, leaves a job that can still be
// used in the provider's Handoffs, under the arguments that started it,
// and the create that follows with the same arguments takes it and waits
// for it instead of starting another. Terraform tells neither half that
// the object was tainted: each family says which jobs may be left (a job
// still running, an export that never got its link). The deployment
// family keeps its own registry, which also times its waits.

// Handoffs holds the jobs that destroyed resources of one type left for
// their replacements, by the arguments that started them. It lives as
// long as the provider's configuration: one apply.
type Handoffs struct {
	mu    sync.Mutex
	byKey map[string][]string
}

// handoffsKey is the key of a resource type's Handoffs in the provider's
// data.
type handoffsKey struct{ resourceType string }

// HandoffsOf is the hand-over registry of resourceType in a configured
// provider.
func HandoffsOf(d *ProviderData, resourceType string) *Handoffs {
	return FamilyState(d, handoffsKey{resourceType}, func() *Handoffs { return &Handoffs{byKey: map[string][]string{}} })
}

// Leave hands the job jobID to the next create of key.
func (h *Handoffs) Leave(key, jobID string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.byKey[key] = append(h.byKey[key], jobID)
}

// Take returns a job left for a create of key, once.
func (h *Handoffs) Take(key string) (jobID string, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	all := h.byKey[key]
	if len(all) == 0 {
		return "", false
	}
	h.byKey[key] = all[1:]
	return all[0], true
}

// HandoffKey is what a replacement must share with the resource it
// replaces to take over its job: the values of the arguments whose change
// starts a new job, in a fixed order. A null collection and an empty one
// are the same.
func HandoffKey(values ...attr.Value) string {
	parts := make([]string, len(values))
	for i, v := range values {
		s := v.String()
		if s == attr.NullValueString {
			s = ""
		}
		if s == "{}" || s == "[]" {
			s = ""
		}
		parts[i] = s
	}
	return strings.Join(parts, "\n")
}
