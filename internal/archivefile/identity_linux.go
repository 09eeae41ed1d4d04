package archivefile

import (
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// identifyPath reads the identity of the regular file at path through
// statx(2), which gives the birth time on ext4, XFS, Btrfs and tmpfs.
func identifyPath(path string, info fs.FileInfo) (Identity, error) {
	return statx(unix.AT_FDCWD, path, unix.AT_SYMLINK_NOFOLLOW, info)
}

// identifyFile reads the identity of an open file.
func identifyFile(f *os.File) (Identity, error) {
	info, err := f.Stat()
	if err != nil {
		return Identity{}, err
	}
	return statx(int(f.Fd()), "", unix.AT_EMPTY_PATH, info)
}

func statx(dirfd int, path string, flags int, info fs.FileInfo) (Identity, error) {
	var st unix.Statx_t
	err := unix.Statx(dirfd, path, flags|unix.AT_STATX_SYNC_AS_STAT, unix.STATX_INO|unix.STATX_BTIME, &st)
	if err != nil {
		// ENOSYS before Linux 4.11, EPERM under some seccomp filters: the
		// device and inode that lstat gave are all there is.
		return identityFromStat(info), nil //nolint:nilerr // a weaker identity, not an error
	}
	id := Identity{Device: unix.Mkdev(st.Dev_major, st.Dev_minor), Inode: st.Ino}
	if st.Mask&unix.STATX_BTIME != 0 {
		id.BornNanos = st.Btime.Sec*1e9 + int64(st.Btime.Nsec)
	}
	return id, nil
}

func identityFromStat(info fs.FileInfo) Identity {
	st, ok := info.Sys().(*unix.Stat_t)
	if !ok {
		return Identity{}
	}
	return Identity{Device: uint64(st.Dev), Inode: st.Ino} //nolint:unconvert // Dev is uint32 on some architectures
}
