//go:build linux

package main

import (
	"encoding/binary"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"
)

// arrivals serves the fake and notes when each job's latest download
// request arrived.
type arrivals struct {
	next http.Handler
	mu   sync.Mutex
	at   map[string]time.Time
}

func (a *arrivals) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if rest, ok := strings.CutPrefix(r.URL.Path, "/bundles/"); ok {
		jobID, _, _ := strings.Cut(rest, "/")
		a.mu.Lock()
		a.at[jobID] = time.Now()
		a.mu.Unlock()
	}
	a.next.ServeHTTP(w, r)
}

func (a *arrivals) arrival(jobID string) time.Time {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.at[jobID]
}

// renameWatch sees, through inotify, the moment a file is renamed into a
// directory.
type renameWatch struct {
	file *os.File
	mu   sync.Mutex
	at   time.Time
	done chan struct{}
}

func watchRename(dir, name string) (*renameWatch, error) {
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC | syscall.IN_NONBLOCK)
	if err != nil {
		return nil, fmt.Errorf("inotify: %w", err)
	}
	if _, err := syscall.InotifyAddWatch(fd, dir, syscall.IN_MOVED_TO); err != nil {
		_ = syscall.Close(fd)
		return nil, fmt.Errorf("inotify on %s: %w", dir, err)
	}
	// Non-blocking, so the runtime poller reads it and Close unblocks Read.
	w := &renameWatch{file: os.NewFile(uintptr(fd), "inotify"), done: make(chan struct{})}
	go w.loop(name)
	return w, nil
}

func (w *renameWatch) loop(name string) {
	defer close(w.done)
	buf := make([]byte, 64<<10)
	for {
		n, err := w.file.Read(buf)
		if err != nil {
			return
		}
		at := time.Now()
		for off := 0; off+syscall.SizeofInotifyEvent <= n; {
			nameLen := int(binary.NativeEndian.Uint32(buf[off+12:]))
			start := off + syscall.SizeofInotifyEvent
			if strings.TrimRight(string(buf[start:start+nameLen]), "\x00") == name {
				w.mu.Lock()
				if w.at.IsZero() {
					w.at = at
				}
				w.mu.Unlock()
			}
			off = start + nameLen
		}
	}
}

func (w *renameWatch) renamed() (time.Time, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.at, !w.at.IsZero()
}

func (w *renameWatch) close() {
	_ = w.file.Close()
	<-w.done
}
