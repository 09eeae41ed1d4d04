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
// their replacements, by the arguments that started them. It lives as long
// as the provider's configuration, one apply: a family keeps one for each
// of its types in the provider's data (FamilyState). The zero value is
// empty and ready.
type Handoffs struct {
	mu    sync.Mutex
	byKey map[string][]string
}

// Leave hands the job jobID to the next create with the same args: the
// values of the arguments whose change starts a new job, in a fixed order.
func (h *Handoffs) Leave(jobID string, args ...attr.Value) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.byKey == nil {
		h.byKey = map[string][]string{}
	}
	key := handoffKey(args)
	h.byKey[key] = append(h.byKey[key], jobID)
}

// Take returns a job left for a create with args, once.
func (h *Handoffs) Take(args ...attr.Value) (jobID string, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	key := handoffKey(args)
	all := h.byKey[key]
	if len(all) == 0 {
		return "", false
	}
	h.byKey[key] = all[1:]
	return all[0], true
}

// handoffKey is what a replacement must share with the resource it
// replaces to take over its job: the values of the arguments whose change
// starts a new job, in a fixed order. A null collection and an empty one
// are the same.
func handoffKey(values []attr.Value) string {
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
