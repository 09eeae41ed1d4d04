package mintlify

import (
	"net/http"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/fakeapitest"
)

// TestCheckKey: a key the API accepts costs one read, once, or none after
// any other answer; a refused key is a 401 every time it is asked.
func TestCheckKey(t *testing.T) {
	t.Parallel()
	const statusPath = "/v1/project/update-status/"

	t.Run("accepted, once", func(t *testing.T) {
		t.Parallel()
		c, fake, _ := newFake(t)
		for range 2 {
			if err := c.CheckKey(t.Context()); err != nil {
				t.Fatalf("CheckKey = %v, want nil", err)
			}
		}
		if n := fake.Count(http.MethodGet, statusPath); n != 1 {
			t.Errorf("the check read %d statuses, want 1", n)
		}
	})

	t.Run("proven by an earlier answer", func(t *testing.T) {
		t.Parallel()
		c, fake, _ := newFake(t)
		if _, err := c.GetAgentJob(t.Context(), "proj_demo", "aj_missing"); !IsNotFound(err) {
			t.Fatalf("GetAgentJob = %v, want a 404", err)
		}
		if err := c.CheckKey(t.Context()); err != nil {
			t.Fatalf("CheckKey = %v, want nil", err)
		}
		if n := fake.Count(http.MethodGet, statusPath); n != 0 {
			t.Errorf("the check read %d statuses, want none: the 404 had proven the key", n)
		}
	})

	t.Run("refused", func(t *testing.T) {
		t.Parallel()
		env := fakeapitest.New(t)
		c, err := New("mint_wrong_key", WithBaseURL(env.URL), WithClock(env.Clock))
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if err := c.CheckKey(t.Context()); !IsUnauthorized(err) {
				t.Fatalf("CheckKey = %v, want a 401", err)
			}
		}
		if n := env.Fake.Count(http.MethodGet, statusPath); n != 2 {
			t.Errorf("the check read %d statuses, want 2 (a refusal is asked again, for its words)", n)
		}
	})
}
