package provider

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/devprovider"
)

// tfSession drives one Terraform working directory command by command, with
// the provider served from this test process through TF_REATTACH_PROVIDERS,
// so that the provider, the fake API and the test share one virtual clock.
// terraform-plugin-testing's steps cannot taint, untaint, import with the
// CLI, or interrupt an apply half-way; terraform-exec could, but its
// environment handling hides what the CLI printed, which the secret checks
// need whole. Each command gets a fresh provider server, as a real CLI run
// gets a fresh plugin process, and the provider's logs (at TRACE) are kept.
type tfSession struct {
	t     *testing.T
	dir   string
	env   []string
	clock *clock.Fake
	// logs collects the provider's log lines of every command.
	logs *syncBuffer
}

// cliResult is one terraform command as a user would have seen it.
type cliResult struct {
	args   []string
	stdout string
	stderr string
	exit   int
}

func (r cliResult) output() string { return r.stdout + r.stderr }

func (r cliResult) String() string {
	return fmt.Sprintf("terraform %s: exit %d\n%s", strings.Join(r.args, " "), r.exit, indent(r.output()))
}

func newTFSession(t *testing.T, clk *clock.Fake, extraEnv ...string) *tfSession {
	t.Helper()
	env := append(os.Environ(), "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1", "TF_LOG=", "TF_LOG_PATH=",
		"MINTLIFY_API_KEY=", "MINTLIFY_BASE_URL=", "MINTLIFY_PROJECT_ID=")
	return &tfSession{t: t, dir: t.TempDir(), env: append(env, extraEnv...), clock: clk, logs: &syncBuffer{}}
}

func (s *tfSession) writeConfig(hcl string) error {
	return os.WriteFile(filepath.Join(s.dir, "main.tf"), []byte(hcl), 0o600)
}

// run runs one terraform command to its end. It fails only when the
// command cannot be run at all; a command that fails is a result.
func (s *tfSession) run(ctx context.Context, args ...string) (cliResult, error) {
	cmd, out, stop, err := s.start(ctx, args...)
	if err != nil {
		return cliResult{}, err
	}
	defer stop()
	return s.wait(cmd, out, args)
}

// start starts a terraform command against a freshly served provider. The
// caller waits for it with wait, then calls stop.
func (s *tfSession) start(ctx context.Context, args ...string) (*exec.Cmd, *cmdOutput, func(), error) {
	reattach, stop, err := s.serveProvider(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	cmd := exec.CommandContext(ctx, os.Getenv("TF_ACC_TERRAFORM_PATH"), args...)
	cmd.Dir = s.dir
	cmd.Env = append(append([]string(nil), s.env...), "TF_REATTACH_PROVIDERS="+reattach)
	cmd.WaitDelay = 10 * time.Second
	out := &cmdOutput{}
	cmd.Stdout, cmd.Stderr = &out.stdout, &out.stderr
	if err := cmd.Start(); err != nil {
		stop()
		return nil, nil, nil, err
	}
	return cmd, out, stop, nil
}

func (s *tfSession) wait(cmd *exec.Cmd, out *cmdOutput, args []string) (cliResult, error) {
	err := cmd.Wait()
	res := cliResult{args: args, stdout: out.stdout.String(), stderr: out.stderr.String()}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		res.exit = exit.ExitCode()
	default:
		return res, fmt.Errorf("terraform %s: %w", strings.Join(args, " "), err)
	}
	return res, nil
}

type cmdOutput struct{ stdout, stderr syncBuffer }

// serveProvider serves the provider in this process until stop, and
// returns the TF_REATTACH_PROVIDERS value that points Terraform (and
// OpenTofu, under its own registry address) at it.
func (s *tfSession) serveProvider(ctx context.Context) (string, func(), error) {
	ctx, cancel := context.WithCancel(ctx)
	configCh := make(chan *plugin.ReattachConfig, 1)
	closeCh := make(chan struct{})
	factory := providerserver.NewProtocol6(&mintlifyProvider{version: "test", clock: s.clock})
	serveErr := make(chan error, 1)
	go func() {
		serveErr <- tf6server.Serve(devprovider.Addresses[0], func() tfprotov6.ProviderServer {
			return loggingServer{ProviderServer: factory(), out: s.logs}
		}, tf6server.WithDebug(ctx, configCh, closeCh), tf6server.WithGoPluginLogger(hclog.NewNullLogger()),
			tf6server.WithLoggingSink(s.t), tf6server.WithoutLogStderrOverride())
	}()
	var rc *plugin.ReattachConfig
	select {
	case rc = <-configCh:
	case err := <-serveErr:
		cancel()
		return "", nil, fmt.Errorf("serving the provider: %v", err)
	}
	stop := func() {
		cancel()
		<-closeCh
	}
	entry := map[string]any{
		"Protocol": string(rc.Protocol), "ProtocolVersion": rc.ProtocolVersion, "Pid": rc.Pid, "Test": rc.Test,
		"Addr": map[string]string{"Network": rc.Addr.Network(), "String": rc.Addr.String()},
	}
	all := map[string]any{}
	for _, addr := range devprovider.Addresses {
		all[addr] = entry
	}
	raw, err := json.Marshal(all)
	if err != nil {
		stop()
		return "", nil, err
	}
	return string(raw), stop, nil
}

// loggingServer sends the provider's logs, at TRACE, to out: the ones a
// user would see with TF_LOG=TRACE.
type loggingServer struct {
	tfprotov6.ProviderServer
	out io.Writer
}

func (l loggingServer) logged(ctx context.Context) context.Context {
	return tflogtest.RootLogger(ctx, l.out)
}

func (l loggingServer) ConfigureProvider(ctx context.Context, req *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	return l.ProviderServer.ConfigureProvider(l.logged(ctx), req)
}

func (l loggingServer) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	return l.ProviderServer.ReadResource(l.logged(ctx), req)
}

func (l loggingServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	return l.ProviderServer.PlanResourceChange(l.logged(ctx), req)
}

func (l loggingServer) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	return l.ProviderServer.ApplyResourceChange(l.logged(ctx), req)
}

func (l loggingServer) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	return l.ProviderServer.ImportResourceState(l.logged(ctx), req)
}

// stateInstance is the bundle's instance in terraform.tfstate.
type stateInstance struct {
	Exists  bool
	Tainted bool
	Attrs   map[string]any
	// Private is the provider's private state, by key.
	Private map[string][]byte
}

func (i stateInstance) str(name string) string {
	s, _ := i.Attrs[name].(string)
	return s
}

// readInstance reads the instance of address type.name from the state.
func (s *tfSession) readInstance(resourceType, name string) (stateInstance, error) {
	raw, err := os.ReadFile(filepath.Join(s.dir, "terraform.tfstate"))
	if errors.Is(err, os.ErrNotExist) {
		return stateInstance{}, nil
	}
	if err != nil {
		return stateInstance{}, err
	}
	var state struct {
		Resources []struct {
			Mode, Type, Name string
			Instances        []struct {
				Status     string
				Attributes map[string]any
				Private    string
			}
		}
	}
	if err := json.Unmarshal(raw, &state); err != nil {
		return stateInstance{}, fmt.Errorf("terraform.tfstate: %w", err)
	}
	for _, r := range state.Resources {
		if r.Mode != "managed" || r.Type != resourceType || r.Name != name || len(r.Instances) == 0 {
			continue
		}
		inst := r.Instances[0]
		out := stateInstance{Exists: true, Tainted: inst.Status == "tainted", Attrs: inst.Attributes}
		if inst.Private != "" {
			decoded, err := base64.StdEncoding.DecodeString(inst.Private)
			if err != nil {
				return out, fmt.Errorf("private state: %w", err)
			}
			if err := json.Unmarshal(decoded, &out.Private); err != nil {
				return out, fmt.Errorf("private state %s: %w", decoded, err)
			}
		}
		return out, nil
	}
	return stateInstance{}, nil
}

func indent(s string) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return ""
	}
	var b bytes.Buffer
	for _, line := range strings.Split(s, "\n") {
		b.WriteString("    | " + line + "\n")
	}
	return b.String()
}
