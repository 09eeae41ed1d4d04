//go:build !linux && !darwin && !freebsd && !windows

package archivefile

import (
	"io/fs"
	"os"
)

// identifyPath gives no identity on the systems the provider is not
// released for: ownership is then judged by the content alone.
func identifyPath(string, fs.FileInfo) (Identity, error) { return Identity{}, nil }

func identifyFile(*os.File) (Identity, error) { return Identity{}, nil }
