package kubetest

import (
	"path/filepath"
	"strings"
	"testing"
)

// A binary that cannot be found is an error that says what to do, never a
// reason to skip.
func TestFindBinaryMissing(t *testing.T) {
	empty := t.TempDir()
	t.Setenv("MINTLIFY_TOOLS_DIR", empty)
	t.Setenv("HOME", empty)
	t.Setenv(EtcdEnv, "")
	_, err := findBinary(EtcdEnv, "etcd-"+EtcdVersion)
	if err == nil || !strings.Contains(err.Error(), "make test-compat") || !strings.Contains(err.Error(), EtcdEnv) {
		t.Errorf("got %v, want an error naming make test-compat and %s", err, EtcdEnv)
	}

	t.Setenv(KubeAPIServerEnv, filepath.Join(empty, "nothing-here"))
	_, err = findBinary(KubeAPIServerEnv, "kube-apiserver-"+KubeAPIServerVersion)
	if err == nil || !strings.Contains(err.Error(), KubeAPIServerEnv+"=") {
		t.Errorf("got %v, want an error naming %s", err, KubeAPIServerEnv)
	}
}
