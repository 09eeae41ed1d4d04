//go:build ecosystem

package kubetest

import (
	"errors"
	"os"
	"testing"
)

// TestStartStop starts a cluster, reads /readyz and /version with the token,
// stores an object and reads it back; once the test that started it has
// ended, both processes have exited and the directory is gone.
func TestStartStop(t *testing.T) {
	var c *Cluster
	t.Run("running", func(t *testing.T) {
		c = Start(t)
		var version struct{ GitVersion string }
		if err := c.Get(t.Context(), "/version", &version); err != nil {
			t.Fatal(err)
		}
		if want := "v" + KubeAPIServerVersion; version.GitVersion != want {
			t.Errorf("/version says %q, want %q", version.GitVersion, want)
		}
		if status, err := c.get(t.Context(), "/readyz", nil); err != nil || status != 200 {
			t.Errorf("/readyz: %d, %v", status, err)
		}
		ns := map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "kubetest"}}
		if err := c.Create(t.Context(), "/api/v1/namespaces", ns); err != nil {
			t.Fatal(err)
		}
		var got struct{ Metadata struct{ Name string } }
		if err := c.Get(t.Context(), "/api/v1/namespaces/kubetest", &got); err != nil || got.Metadata.Name != "kubetest" {
			t.Errorf("reading the namespace back: %+v, %v", got, err)
		}
		if err := c.Get(t.Context(), "/api/v1/namespaces/kubetest/configmaps/absent", nil); !IsNotFound(err) {
			t.Errorf("reading an absent object: %v, want a 404", err)
		}
		if _, err := os.Stat(c.Kubeconfig); err != nil {
			t.Errorf("no kubeconfig: %v", err)
		}
	})
	if c == nil || len(c.procs) != 2 {
		t.Fatal("the cluster did not start")
	}
	for _, p := range c.procs {
		select {
		case <-p.exited:
		default:
			t.Errorf("%s (pid %d) is still running after the test ended", p.name, p.cmd.Process.Pid)
		}
	}
	if _, err := os.Stat(c.dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the cluster's directory %s is still there (%v)", c.dir, err)
	}
}
