//go:build !linux

package archivefile

import (
	"errors"
	"os"
)

// directable is false where there is no O_DIRECT: see setDirect.
func directable([]byte) bool { return false }

// setDirect fails where the provider does not use O_DIRECT: the file is
// written through the page cache.
func setDirect(*os.File, bool) error { return errors.ErrUnsupported }

// startWriteback does nothing where there is no sync_file_range: the fsync
// of Commit writes everything.
func startWriteback(*os.File, int64, int64) {}
