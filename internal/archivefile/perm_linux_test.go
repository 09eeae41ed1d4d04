package archivefile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// withUmask runs f under the process umask mask. It changes the umask of
// the whole process, so its callers are never parallel: Go runs the
// parallel tests of a package only once its sequential ones are done.
func withUmask(mask int, f func()) {
	old := syscall.Umask(mask)
	defer syscall.Umask(old)
	f()
}

// TestPermissionFollowsTheUmask creates the archive as any new file, 0666
// less the umask, unless Options.Perm sets it exactly.
func TestPermissionFollowsTheUmask(t *testing.T) {
	cases := []struct {
		name  string
		umask int
		perm  os.FileMode
		want  os.FileMode
	}{
		{"umask 022", 0o022, 0, 0o644},
		{"umask 077", 0o077, 0, 0o600},
		{"umask 027", 0o027, 0, 0o640},
		{"0640 under umask 077", 0o077, 0o640, 0o640},
		{"0664 under umask 022", 0o022, 0o664, 0o664},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dest := filepath.Join(t.TempDir(), "bundle.tar.gz")
			withUmask(tc.umask, func() {
				f := committable(t, dest, Options{Perm: tc.perm})
				if info, err := os.Stat(f.TempPath()); err != nil || info.Mode().Perm()&^tc.want != 0 {
					t.Errorf("the partial download's mode is %v (%v), more than %v", info.Mode(), err, tc.want)
				}
				if _, _, err := f.Commit(nil); err != nil {
					t.Fatal(err)
				}
			})
			if info, err := os.Stat(dest); err != nil || info.Mode().Perm() != tc.want {
				t.Errorf("mode %v (%v), want %v", info.Mode().Perm(), err, tc.want)
			}
		})
	}
}
