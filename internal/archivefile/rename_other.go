//go:build !linux && !darwin && !windows

package archivefile

import "errors"

// renameNoReplace renames from to to unless to exists (an error satisfying
// errors.Is(err, fs.ErrExist)). These systems have no rename that refuses
// to replace: it links and unlinks.
func renameNoReplace(from, to string) error { return linkThenUnlink(from, to) }

// renameExchange is not available on these systems: Commit renames over
// the checked file instead.
func renameExchange(a, b string) error { return renameError(a, b, errors.ErrUnsupported) }
