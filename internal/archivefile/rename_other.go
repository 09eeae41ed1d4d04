//go:build !linux && !darwin && !windows

package archivefile

// renameNoReplace renames from to to unless to exists (an error satisfying
// errors.Is(err, fs.ErrExist)). These systems have no rename that refuses
// to replace: it links and unlinks.
func renameNoReplace(from, to string) error { return linkThenUnlink(from, to) }
