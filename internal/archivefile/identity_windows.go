package archivefile

import (
	"io/fs"
	"os"
	"syscall"
)

// identifyPath reads the identity of the regular file at path: its
// volume serial number, file index and creation time.
func identifyPath(path string, _ fs.FileInfo) (Identity, error) {
	name, err := syscall.UTF16PtrFromString(path)
	if err != nil {
		return Identity{}, err
	}
	// Neither read nor write access is needed to read the attributes; a
	// reparse point (a symbolic link) is opened, not followed.
	h, err := syscall.CreateFile(name, 0, syscall.FILE_SHARE_READ|syscall.FILE_SHARE_WRITE|syscall.FILE_SHARE_DELETE,
		nil, syscall.OPEN_EXISTING, syscall.FILE_FLAG_BACKUP_SEMANTICS|syscall.FILE_FLAG_OPEN_REPARSE_POINT, 0)
	if err != nil {
		return Identity{}, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer func() { _ = syscall.CloseHandle(h) }()
	return identifyHandle(h)
}

// identifyFile reads the identity of an open file.
func identifyFile(f *os.File) (Identity, error) {
	return identifyHandle(syscall.Handle(f.Fd()))
}

func identifyHandle(h syscall.Handle) (Identity, error) {
	var d syscall.ByHandleFileInformation
	if err := syscall.GetFileInformationByHandle(h, &d); err != nil {
		return Identity{}, err
	}
	return Identity{
		Device:    uint64(d.VolumeSerialNumber),
		Inode:     uint64(d.FileIndexHigh)<<32 | uint64(d.FileIndexLow),
		BornNanos: d.CreationTime.Nanoseconds(),
	}, nil
}
