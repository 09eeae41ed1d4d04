package providertest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// CLI is one working directory and the environment the CLI under test runs
// every command in.
type CLI struct {
	// Dir is the working directory, empty at first: main.tf and
	// terraform.tfstate are there.
	Dir string

	t   *testing.T
	bin string
	env []string
	// serve serves the provider for one command and returns the
	// TF_REATTACH_PROVIDERS value; nil when the CLI starts the provider
	// itself.
	serve func() (reattach string, stop func(), err error)
}

// CLIOption adds to what a CLI is created with.
type CLIOption func(*CLI)

// WithEnv adds variables ("NAME=value") to every command's environment, after
// the defaults, so that they win. A served provider runs in the test
// process and reads that process's environment, not these.
func WithEnv(vars ...string) CLIOption {
	return func(c *CLI) { c.env = append(c.env, vars...) }
}

// ServedCLI returns a CLI in a new working directory that runs each command
// against the provider that provider makes, served from the test process
// (on whatever clock it was given) for that command alone, as a real run
// starts a fresh plugin process. It is reattached under both registry
// addresses, so that `source = "mintlify/mintlify"` finds it under
// Terraform and OpenTofu alike.
func ServedCLI(t *testing.T, provider func() tfprotov6.ProviderServer, opts ...CLIOption) *CLI {
	t.Helper()
	c := newCLI(t, opts)
	c.serve = func() (string, func(), error) { return serve(t, provider) }
	return c
}

func newCLI(t *testing.T, opts []CLIOption) *CLI {
	t.Helper()
	c := &CLI{Dir: t.TempDir(), t: t, bin: CLIPath(t), env: append(os.Environ(),
		"TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1", "TF_LOG=", "TF_LOG_PATH=",
		// The developer's own settings never reach a provider the CLI starts.
		"MINTLIFY_API_KEY=", "MINTLIFY_BASE_URL=", "MINTLIFY_PROJECT_ID=")}
	for _, opt := range opts {
		opt(c)
	}
	return c
}

// requiredProviders is the terraform block that WriteConfig puts first.
const requiredProviders = "terraform {\n  required_providers {\n    mintlify = { source = \"mintlify/mintlify\" }\n  }\n}\n"

// WriteConfig writes main.tf: the required_providers block that names
// this provider, then body.
func (c *CLI) WriteConfig(body string) {
	c.t.Helper()
	c.WriteFile("main.tf", requiredProviders+body)
}

// WriteFile writes a file of the working directory, as it is.
func (c *CLI) WriteFile(name, content string) {
	c.t.Helper()
	if err := os.WriteFile(filepath.Join(c.Dir, name), []byte(content), 0o600); err != nil {
		c.t.Fatal(err)
	}
}

// Result is one command as a user would have seen it.
type Result struct {
	Args           []string
	Stdout, Stderr string
	// Output is stdout and stderr as a terminal shows them, interleaved.
	Output string
	// Exit is the exit status.
	Exit int
}

func (r Result) String() string {
	return fmt.Sprintf("terraform %s: exit %d\n%s", strings.Join(r.Args, " "), r.Exit, Indent(r.Output))
}

// Indent prefixes each line of s with "    | ", to quote a command's
// output in a test's message.
func Indent(s string) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return ""
	}
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		b.WriteString("    | " + line + "\n")
	}
	return b.String()
}

// Run runs a command to its end. A command that fails is a Result with a
// non-zero Exit; the test fails only when the command cannot run at all,
// or runs longer than commandTimeout.
func (c *CLI) Run(args ...string) Result {
	c.t.Helper()
	return c.Start(args...).Wait()
}

// MustRun runs a command and fails the test, with its output, unless it
// succeeds.
func (c *CLI) MustRun(args ...string) Result {
	c.t.Helper()
	res := c.Run(args...)
	if res.Exit != 0 {
		c.t.Fatal(res)
	}
	return res
}

// Start starts a command and returns while it runs.
func (c *CLI) Start(args ...string) *Process {
	c.t.Helper()
	return c.start(args, nil)
}

// start starts a command, after setup (when not nil) has adjusted it.
func (c *CLI) start(args []string, setup func(*exec.Cmd)) *Process {
	c.t.Helper()
	env := c.env
	stop := func() {}
	if c.serve != nil {
		reattach, stopServing, err := c.serve()
		if err != nil {
			c.t.Fatal(err)
		}
		env, stop = append(append([]string(nil), env...), "TF_REATTACH_PROVIDERS="+reattach), stopServing
	}
	ctx, cancel := context.WithTimeout(c.t.Context(), commandTimeout)
	cmd := exec.CommandContext(ctx, c.bin, args...)
	cmd.Dir, cmd.Env, cmd.WaitDelay = c.Dir, env, 10*time.Second
	p := &Process{t: c.t, args: args, cmd: cmd, out: newOutput(), done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = p.out.stream(0), p.out.stream(1)
	if setup != nil {
		setup(cmd)
	}
	if err := cmd.Start(); err != nil {
		cancel()
		stop()
		c.t.Fatalf("terraform %s: %v", strings.Join(args, " "), err)
	}
	go func() {
		defer close(p.done)
		defer cancel()
		defer stop()
		p.err = cmd.Wait()
		p.timedOut = errors.Is(ctx.Err(), context.DeadlineExceeded)
		p.out.close()
	}()
	return p
}

// Process is a command that was started.
type Process struct {
	t    *testing.T
	args []string
	cmd  *exec.Cmd
	out  *output
	// done is closed once the command has ended and its provider, if
	// served, has stopped; err and timedOut are set by then.
	done     chan struct{}
	err      error
	timedOut bool
}

// WaitFor returns the first line of output (stdout or stderr) that holds
// marker, once the command has printed it. The test fails if the command
// ends without printing it.
func (p *Process) WaitFor(marker string) string {
	p.t.Helper()
	for seen := 0; ; {
		lines, more := p.out.linesFrom(seen)
		for _, line := range lines {
			if strings.Contains(line, marker) {
				return line
			}
		}
		seen += len(lines)
		if more == nil {
			p.t.Fatalf("terraform %s ended (%v) before printing %q:\n%s", strings.Join(p.args, " "), p.err, marker,
				Indent(p.out.String()))
		}
		<-more
	}
}

// Interrupt sends the command SIGINT, as Ctrl-C does.
func (p *Process) Interrupt() {
	p.t.Helper()
	if err := p.cmd.Process.Signal(os.Interrupt); err != nil {
		p.t.Fatal(err)
	}
}

// Done is closed once the command has ended.
func (p *Process) Done() <-chan struct{} { return p.done }

// Output is what the command printed so far, stdout and stderr
// interleaved.
func (p *Process) Output() string { return p.out.String() }

// Wait waits for the command to end and returns what it did. The test
// fails when the command could not be waited for, or ran too long.
func (p *Process) Wait() Result {
	p.t.Helper()
	<-p.done
	res := Result{Args: p.args, Stdout: p.out.stdout.String(), Stderr: p.out.stderr.String(), Output: p.out.String()}
	var exit *exec.ExitError
	switch {
	case p.timedOut:
		p.t.Fatalf("terraform %s ran for more than %s:\n%s", strings.Join(p.args, " "), commandTimeout, Indent(res.Output))
	case p.err == nil:
	case errors.As(p.err, &exit):
		res.Exit = exit.ExitCode()
	default:
		p.t.Fatalf("terraform %s: %v\n%s", strings.Join(p.args, " "), p.err, Indent(res.Output))
	}
	return res
}

// ReadFile returns a file of the working directory, "" when it does not
// exist.
func (c *CLI) ReadFile(name string) string {
	c.t.Helper()
	b, err := os.ReadFile(filepath.Join(c.Dir, name))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		c.t.Fatal(err)
	}
	return string(b)
}
