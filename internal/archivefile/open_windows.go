package archivefile

import "os"

// openNoFollow opens path for reading. Windows has no O_NOFOLLOW: the
// callers compare the identity of what they opened with the file they
// expect, which a link's target does not have.
func openNoFollow(path string) (*os.File, error) { return os.Open(path) }
