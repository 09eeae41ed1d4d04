//go:build !windows

package archivefile

import "os"

// syncDir flushes the directory dir to disk, so that an entry created,
// removed or renamed in it survives a crash.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if closeErr := d.Close(); err == nil {
		err = closeErr
	}
	return err
}
