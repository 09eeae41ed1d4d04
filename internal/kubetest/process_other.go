//go:build !linux

package kubetest

import "syscall"

// dieWithParent needs Linux; elsewhere the cleanup alone stops the
// processes.
func dieWithParent() *syscall.SysProcAttr { return nil }
