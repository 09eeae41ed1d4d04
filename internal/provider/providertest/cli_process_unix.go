//go:build unix

package providertest

import (
	"os/exec"
	"syscall"
)

// StartInGroup is Start, with the command leading a process group of its
// own, which holds the provider the CLI starts: KillGroup kills both, as
// the out-of-memory killer or a CI runner's hard timeout would.
func (c *CLI) StartInGroup(args ...string) *Process {
	c.t.Helper()
	return c.start(args, func(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} })
}

// KillGroup sends SIGKILL to the process group of a command started by
// StartInGroup.
func (p *Process) KillGroup() {
	p.t.Helper()
	if err := syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL); err != nil {
		p.t.Fatal(err)
	}
}
