package kubetest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// stopTimeout is how long a process may take to exit after SIGTERM before
// it is killed.
const stopTimeout = 15 * time.Second

// process is a started binary whose output goes to a log file.
type process struct {
	name string
	log  string
	cmd  *exec.Cmd
	// exited is closed once the process has exited; err is then its
	// exit status.
	exited chan struct{}
	err    error
}

// spawn starts binary with args, its output in dir/NAME.log, and adds it to
// the cluster's processes.
func (c *Cluster) spawn(name, binary string, args ...string) error {
	logPath := filepath.Join(c.dir, name+".log")
	logFile, err := os.Create(logPath)
	if err != nil {
		return err
	}
	cmd := exec.Command(binary, args...)
	cmd.Dir = c.dir
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = dieWithParent()
	if err := cmd.Start(); err != nil {
		_ = logFile.Close()
		return fmt.Errorf("starting %s: %w", name, err)
	}
	p := &process{name: name, log: logPath, cmd: cmd, exited: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		_ = logFile.Close()
		close(p.exited)
	}()
	c.procs = append(c.procs, p)
	return nil
}

// stop asks the process to exit, kills it if it has not within
// stopTimeout, and returns once it has exited.
func (p *process) stop() error {
	select {
	case <-p.exited:
		return nil // it already ended, and whoever cared has said why
	default:
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	timer := time.NewTimer(stopTimeout)
	defer timer.Stop()
	select {
	case <-p.exited:
		return nil
	case <-timer.C:
	}
	p.kill()
	return fmt.Errorf("it did not exit within %s of SIGTERM and was killed", stopTimeout)
}

// kill kills the process and returns once it has exited.
func (p *process) kill() {
	_ = p.cmd.Process.Kill() // it may have exited already
	<-p.exited
}

// tail returns the last n lines of the file at path.
func tail(path string, n int) string {
	raw, err := os.ReadFile(path)
	if err != nil {
		return fmt.Sprintf("(cannot read the log: %v)", err)
	}
	lines := bytes.Split(bytes.TrimRight(raw, "\n"), []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return string(bytes.Join(lines, []byte("\n")))
}
