package kubetest

import "syscall"

// dieWithParent has the kernel kill the process when the test binary dies
// (a `go test` timeout, a Ctrl-C), so that nothing outlives a test that
// could not run its cleanup.
func dieWithParent() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
