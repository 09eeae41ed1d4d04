package archivefile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// A temporary file is named .<name>.<16 hex digits>.partial, beside the
// archive it becomes.
const (
	partialSuffix = ".partial"
	randomDigits  = 16
)

// StaleAfter is how old (by modification time) a partial download of the
// same path must be for Create to remove it: one that a killed run left
// behind. A download in progress writes to its file continually.
const StaleAfter = time.Hour

// createTemp creates a new temporary file for the archive at path, with
// permission perm and the process umask applied by the system, as to any
// new file.
func createTemp(path string, perm fs.FileMode) (*os.File, error) {
	dir, base := filepath.Split(path)
	for range 10 {
		var random [randomDigits / 2]byte
		_, _ = rand.Read(random[:]) // never fails
		name := filepath.Join(dir, "."+base+"."+hex.EncodeToString(random[:])+partialSuffix)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, &fs.PathError{Op: "createtemp", Path: path, Err: fs.ErrExist}
}

// isPartialOf reports whether name is the name of a temporary file of the
// archive named base, exactly as createTemp names them.
func isPartialOf(name, base string) bool {
	random, ok := strings.CutPrefix(name, "."+base+".")
	if !ok {
		return false
	}
	random, ok = strings.CutSuffix(random, partialSuffix)
	if !ok || len(random) != randomDigits {
		return false
	}
	for _, c := range random {
		if !strings.ContainsRune("0123456789abcdef", c) {
			return false
		}
	}
	return true
}

// removeStale removes the partial downloads of the archive at path whose
// modification time is older than StaleAfter, and returns their paths.
// Only regular files named exactly as createTemp names them are touched.
func removeStale(path string, now time.Time) []string {
	dir, base := filepath.Split(path)
	entries, err := os.ReadDir(filepath.Clean(dir))
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		if !e.Type().IsRegular() || !isPartialOf(e.Name(), base) {
			continue
		}
		info, err := e.Info()
		if err != nil || now.Sub(info.ModTime()) < StaleAfter {
			continue
		}
		stale := filepath.Join(dir, e.Name())
		id, err := identifyPath(stale, info)
		if err == nil && RemoveIf(stale, id) == nil {
			removed = append(removed, stale)
		}
	}
	return removed
}

// fsOps are the file system operations of Commit, which tests replace to
// observe their order.
type fsOps struct {
	syncFile func(*os.File) error
	syncDir  func(dir string) error
	rename   func(from, to string) error // never replaces: renameNoReplace
	exchange func(a, b string) error     // swaps two names in one step: renameExchange
	replace  func(from, to string) error // renames over what is there: os.Rename
}

var systemOps = fsOps{syncFile: (*os.File).Sync, syncDir: syncDir, rename: renameNoReplace, exchange: renameExchange, replace: os.Rename}
