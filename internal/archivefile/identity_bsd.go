//go:build darwin || freebsd

package archivefile

import (
	"io/fs"
	"os"
	"syscall"
)

// identifyPath reads the identity of the regular file at path from lstat,
// which gives the birth time on APFS, HFS+, UFS2 and ZFS.
func identifyPath(_ string, info fs.FileInfo) (Identity, error) {
	return identityFromStat(info), nil
}

// identifyFile reads the identity of an open file.
func identifyFile(f *os.File) (Identity, error) {
	info, err := f.Stat()
	if err != nil {
		return Identity{}, err
	}
	return identityFromStat(info), nil
}

func identityFromStat(info fs.FileInfo) Identity {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return Identity{}
	}
	id := Identity{Device: uint64(st.Dev), Inode: uint64(st.Ino)} //nolint:unconvert // the types differ between systems
	if born := st.Birthtimespec.Nano(); born > 0 {
		id.BornNanos = born
	}
	return id
}
