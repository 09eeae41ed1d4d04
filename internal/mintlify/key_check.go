package mintlify

import (
	"context"
	"encoding/json"
	"net/http"
	"sync/atomic"
)

// A plan proposes; only the apply calls the API. So a wrong API key would
// pass `terraform plan -out` and fail the apply step, unless the plan
// proves the key first: CheckKey does, with one read, and only once per
// client, since any answer of the API but a 401 already proves the key.

// keyCheckStatusID names no deployment: reading its status is the
// cheapest authenticated read the API has (no project, no job, no body),
// and any answer but a 401 proves the key.
const keyCheckStatusID = "key-check"

// keyProof is whether the API's latest answer accepted the client's key:
// a 401 refuses it; any other status accepts it.
type keyProof struct{ accepted atomic.Bool }

func (p *keyProof) observe(status int) { p.accepted.Store(status != http.StatusUnauthorized) }

// CheckKey reports whether the API accepts the client's key. It sends no
// request when an earlier answer already said (a refresh before the plan,
// say), and otherwise reads the status of a deployment that does not exist,
// once, without retries: the 404 proves the key. It returns the *APIError of a 401 for a
// refused key, nil for an accepted one, and the call's error when the API
// could not be asked (the apply then says what it finds).
func (c *Client) CheckKey(ctx context.Context) error {
	if c.keyProof.accepted.Load() {
		return nil
	}
	// Unproven, or refused by an earlier call: ask, for the refusal's words.
	var ignored json.RawMessage
	err := c.send(ctx, call{method: http.MethodGet, segments: []string{"v1", "project", "update-status", keyCheckStatusID},
		out: &ignored, idempotent: true, once: true})
	if err != nil && !IsUnauthorized(err) && c.keyProof.accepted.Load() {
		return nil // the expected 404
	}
	return err
}
