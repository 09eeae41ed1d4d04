package devprovider

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// MemorySampler watches /proc for processes running the provider binary and
// keeps the highest VmHWM (peak resident set) any of them reported. VmHWM
// only grows, so reading it every few milliseconds until the process exits
// misses at most what it allocated in its last few milliseconds. New
// processes are looked for every 20 ms; known ones are read every 5 ms.
type MemorySampler struct {
	binary string
	done   chan struct{}
	result chan int64
}

// SampleMemory starts sampling the processes that run binary (a path as
// /proc/PID/exe shows it); on a system without /proc it finds none.
func SampleMemory(binary string) *MemorySampler {
	m := &MemorySampler{binary: binary, done: make(chan struct{}), result: make(chan int64, 1)}
	go m.loop()
	return m
}

// Stop ends the sampling and returns the highest peak resident set seen, in
// bytes; zero when no process ran the binary.
func (m *MemorySampler) Stop() int64 {
	close(m.done)
	return <-m.result
}

func (m *MemorySampler) loop() {
	var peak int64
	pids := map[string]bool{}
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for i := 0; ; i++ {
		if i%4 == 0 {
			m.findPIDs(pids)
		}
		for pid := range pids {
			if hwm, ok := vmHWM(pid); ok {
				peak = max(peak, hwm)
			} else {
				delete(pids, pid)
			}
		}
		select {
		case <-m.done:
			m.result <- peak
			return
		case <-tick.C:
		}
	}
}

// findPIDs adds the ids of processes running the binary.
func (m *MemorySampler) findPIDs(pids map[string]bool) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil || pids[e.Name()] {
			continue
		}
		if exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe")); err == nil && exe == m.binary {
			pids[e.Name()] = true
		}
	}
}

// vmHWM reads a process's peak resident set, in bytes.
func vmHWM(pid string) (int64, bool) {
	status, err := os.ReadFile(filepath.Join("/proc", pid, "status"))
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb * 1024, err == nil
		}
	}
	return 0, false
}
