//go:build !windows

package archivefile

import (
	"os"
	"syscall"
	"testing"
)

// specialMakers make at a path what is not a regular file.
func specialMakers() map[string]func(t *testing.T, p string) {
	return map[string]func(t *testing.T, p string){
		"directory": func(t *testing.T, p string) {
			t.Helper()
			if err := os.Mkdir(p, 0o755); err != nil {
				t.Fatal(err)
			}
		},
		"symbolic link": func(t *testing.T, p string) {
			t.Helper()
			if err := os.WriteFile(p+".target", []byte("another user's file"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(p+".target", p); err != nil {
				t.Fatal(err)
			}
		},
		"FIFO": func(t *testing.T, p string) {
			t.Helper()
			if err := syscall.Mkfifo(p, 0o600); err != nil {
				t.Fatal(err)
			}
		},
	}
}
