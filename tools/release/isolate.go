package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
)

// isolatedEnv marks the run inside the network namespace.
const isolatedEnv = "MINTLIFY_RELEASE_ISOLATED"

// isolate runs this program again in a network namespace of its own whose
// only interface is loopback (unshare), so that the rehearsal proves that
// neither the release build nor any CLI fetches anything from beyond this
// machine. It returns the exit code of that run and ran = true; when
// isolation is not possible (no unshare, or no user namespaces for a user
// other than root), ran = false and network says why, and the caller goes
// on here. Inside the namespace, ran = false and network says so.
func isolate() (code int, ran bool, network string) {
	if os.Getenv(isolatedEnv) != "" {
		return 0, false, "loopback only, in a network namespace of its own (unshare --net): nothing can be fetched"
	}
	args := []string{"--net"}
	if os.Geteuid() != 0 {
		args = append(args, "--map-root-user")
	}
	probe := exec.Command("unshare", append(args, "--", "ip", "link", "set", "lo", "up")...)
	if out, err := probe.CombinedOutput(); err != nil {
		return 0, false, fmt.Sprintf("NOT isolated: unshare %s failed (%v: %s), so the rehearsal does not prove that "+
			"nothing is fetched", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	exe, err := os.Executable()
	if err != nil {
		return 0, false, "NOT isolated: " + err.Error()
	}
	shell := `ip link set lo up && exec "$0" "$@"`
	cmd := exec.Command("unshare", append(append(args, "--", "sh", "-c", shell, exe), os.Args[1:]...)...)
	cmd.Env = append(os.Environ(), isolatedEnv+"=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	// Ctrl-C reaches the isolated run too, which cleans up and exits:
	// wait for it.
	signal.Ignore(os.Interrupt)
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return exit.ExitCode(), true, ""
	case err != nil:
		fmt.Fprintln(os.Stderr, "release: unshare:", err)
		return 1, true, ""
	}
	return 0, true, ""
}
