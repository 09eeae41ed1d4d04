// Command sandbox is the program behind `make sandbox`: it builds the
// provider, serves the fake Mintlify API on a loopback port in real time,
// and prints the environment that points Terraform or OpenTofu at both, so
// that anyone can try the provider by hand from any directory. It runs until
// Ctrl-C (SIGINT) or SIGTERM, then stops the fake and removes everything it
// created: the temporary directory with the provider binary, the mirror and
// the CLI configuration.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/mintlify/terraform-provider-mintlify/internal/devprovider"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
)

func main() {
	mode := flag.String("deployments", "succeed", "what every deployment and preview does: succeed, fail or slow")
	contract := flag.String(contractFlag[1:], defaultContract, "the static export contracts the stand-in serves: "+contractNames())
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Stdout, *mode, *contract); err != nil {
		fmt.Fprintln(os.Stderr, "sandbox failed:", err)
		os.Exit(1)
	}
}

// run sets the sandbox up, prints how to use it, and tears it down when ctx
// is done. It must run from the module's root, as make runs it.
func run(ctx context.Context, out io.Writer, mode, contractName string) error {
	opts, err := seeds(mode)
	if err != nil {
		return err
	}
	contract, err := contractFor(contractName)
	if err != nil {
		return err
	}
	opts = append(opts, contract.option())
	step(out, "Building the provider")
	ws, err := devprovider.NewWorkspace(ctx, ".", "mintlify-sandbox-", out)
	if err != nil {
		return err
	}
	helm, err := addHelm(ctx, out, ws)
	if err == nil {
		err = serve(ctx, out, ws, mode, helm, contractName, opts)
	}
	if rmErr := ws.Close(); rmErr != nil {
		return errors.Join(err, rmErr)
	}
	_, _ = fmt.Fprintf(out, "  removed %s\n", ws.Dir)
	return err
}

// serve serves the fake API for the workspace until ctx is done, and
// stops it.
func serve(ctx context.Context, out io.Writer, ws *devprovider.Workspace, mode, helm, contract string, opts []fakeapi.Option) error {
	step(out, "Starting the fake Mintlify API")
	fake, err := devprovider.StartAPI(opts...)
	if err != nil {
		return err
	}
	defer func() { _ = fake.Close() }()
	_, _ = fmt.Fprintln(out, "  listening on", fake.URL)

	printUsage(out, append(devprovider.Env(fake), "TF_CLI_CONFIG_FILE="+ws.CLIConfig), ws.Dir, helm)
	printContract(out, contract)
	printSeeds(out, mode)
	<-ctx.Done()
	step(out, "Stopping the fake API")
	return nil
}

// addHelm puts the hashicorp/helm provider, when there is one (see
// devprovider.SandboxHelm), into the workspace's mirror, so that the
// configurations with a helm_release (the README's, the chain guide's)
// init as they are. It returns what the usage says of helm.
func addHelm(ctx context.Context, out io.Writer, ws *devprovider.Workspace) (string, error) {
	step(out, "Adding the hashicorp/helm provider")
	helm, why := devprovider.SandboxHelm(ctx, ws.Dir)
	if helm == "" {
		_, _ = fmt.Fprintf(out, "  not added: %s\n", why)
		return "  Without hashicorp/helm (" + why + "), a configuration with a helm_release\n" +
			"  does not init: set MINTLIFY_SHARED_TOOLS or " + devprovider.HelmProviderEnv + " and start again.", nil
	}
	if err := ws.AddHelm(helm); err != nil {
		return "", err
	}
	_, _ = fmt.Fprintf(out, "  hashicorp/helm %s from %s\n", devprovider.HelmVersion, helm)
	return "  hashicorp/helm " + devprovider.HelmVersion + " is in the mirror too: terraform init installs it for the\n" +
		"  README's Helm example and the chain guide; applying a helm_release needs a Kubernetes\n" +
		"  cluster of your own (kubeconfig) and the chart's repository.", nil
}

// printUsage prints the environment as shell exports, then what it does;
// helm says what the configuration offers of the helm provider.
func printUsage(out io.Writer, env []string, tmp, helm string) {
	step(out, "Ready. In another shell, in any directory:")
	_, _ = fmt.Fprintln(out)
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		_, _ = fmt.Fprintf(out, "export %s='%s'\n", name, value)
	}
	_, _ = fmt.Fprintf(out, `
  The CLI configuration runs the provider just built for source = "mintlify/mintlify",
  under Terraform and OpenTofu, and installs nothing from a registry (built-in providers
  such as terraform_data work). Run terraform plan and apply; terraform init is optional
  for this provider alone, and writes a .terraform.lock.hcl that records this local
  build: never commit it.
%s
  Exports take about 5 seconds; the agent job %s completes after 3 seconds.

  Ctrl-C stops the fake API and removes %s
  (the provider binary and the CLI configuration).
`, helm, devprovider.DemoAgentJobID, tmp)
}

func step(out io.Writer, title string) { _, _ = fmt.Fprintf(out, "\n==> %s\n", title) }
