package staticexport

import (
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// waitForEntry returns the entries of dir that match pattern as soon as
// there is one, told by inotify rather than by polling; nil when done
// closes (or a minute passes) first. dir must exist.
func waitForEntry(t *testing.T, dir, pattern string, done <-chan struct{}) []string {
	t.Helper()
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := unix.InotifyAddWatch(fd, dir, unix.IN_CREATE|unix.IN_MOVED_TO); err != nil {
		_ = unix.Close(fd)
		t.Fatal(err)
	}
	events := make(chan struct{}, 1)
	go func() {
		buf := make([]byte, 4096)
		for {
			if _, err := unix.Read(fd, buf); err != nil {
				return
			}
			select {
			case events <- struct{}{}:
			default:
			}
		}
	}()
	defer unix.Close(fd) //nolint:errcheck // ends the reader
	bound := time.After(time.Minute)
	for {
		if found, _ := filepath.Glob(filepath.Join(dir, pattern)); len(found) > 0 {
			return found
		}
		select {
		case <-events:
		case <-done:
			found, _ := filepath.Glob(filepath.Join(dir, pattern))
			return found
		case <-bound:
			return nil
		}
	}
}
