// Command demo runs the quickstart for real (a deployment, the export of
// what it deployed, the chart's values, an agent job): it builds the
// provider, serves the fake Mintlify API on a loopback port, applies
// examples/quickstart with
// the Terraform CLI from PATH through a generated CLI configuration
// (dev_overrides: nothing is downloaded), prints the outputs, proves the
// bundle link downloads, plans again to show there is nothing left to do,
// and stops everything it started.
package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/mintlify/terraform-provider-mintlify/internal/devprovider"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "demo failed:", err)
		os.Exit(1)
	}
}

func run() error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	terraform, err := devprovider.Terraform()
	if err != nil {
		return err
	}

	step("Building the provider")
	ws, err := devprovider.NewWorkspace(ctx, ".", "mintlify-demo-", os.Stdout)
	if err != nil {
		return err
	}
	defer func() { _ = ws.Close() }()

	step("Starting the fake Mintlify API")
	fake, err := devprovider.StartAPI()
	if err != nil {
		return err
	}
	defer func() { _ = fake.Close() }()
	fmt.Println("  listening on", fake.URL)

	work := filepath.Join(ws.Dir, "quickstart")
	if err := copyDir(filepath.Join("examples", "quickstart"), work); err != nil {
		return err
	}
	tf := ws.Commands(terraform, devprovider.Env(fake)...)
	tfVars := []string{"-input=false", "-no-color", "-var", "agent_job_id=" + devprovider.DemoAgentJobID}

	step("terraform apply examples/quickstart")
	if err := runCLI(tf.Command(ctx, work, append([]string{"apply", "-auto-approve"}, tfVars...)...), os.Stdout); err != nil {
		return fmt.Errorf("terraform apply: %w", err)
	}

	step("Outputs")
	outputs := map[string]string{}
	for _, name := range []string{"deployment_status", "deployed_commit", "bundle_url", "expires_at", "page_count",
		"agent_job_status", "agent_pr_link"} {
		var out bytes.Buffer
		if err := runCLI(tf.Command(ctx, work, "output", "-raw", name), &out); err != nil {
			return fmt.Errorf("terraform output %s: %w", name, err)
		}
		outputs[name] = out.String()
		fmt.Printf("  %-17s %s\n", name, shown(name, out.String()))
	}

	step("Downloading the bundle link")
	size, err := download(ctx, outputs["bundle_url"])
	if err != nil {
		return err
	}
	fmt.Printf("  HTTP 200, %d bytes of gzip'd tar: the link works until %s\n", size, outputs["expires_at"])

	step("terraform plan again: nothing to do")
	if err := runCLI(tf.Command(ctx, work, append([]string{"plan", "-detailed-exitcode"}, tfVars...)...), os.Stdout); err != nil {
		return fmt.Errorf("the second plan is not empty: %w", err)
	}

	step("Done")
	fmt.Printf("  deployments triggered: %d, export jobs started: %d, bundle links generated: %d\n",
		len(fake.Fake.DeploymentRequests()), fake.Fake.ExportJobsStarted(), fake.Fake.BundlesGenerated())
	fmt.Println("  the fake API is stopped and the temporary directory removed on exit")
	return nil
}

// shown is how the demo prints the output name: the bundle link without
// its query, which holds the signature that grants access to the bundle.
func shown(name, value string) string {
	if name == "bundle_url" {
		return maskLink(value)
	}
	return value
}

// maskLink returns link with its query, fragment and any user information
// replaced by a note that says how long the hidden query was: enough to see
// which host and object the link names, never enough to use it.
func maskLink(link string) string {
	u, err := url.Parse(link)
	if err != nil || u.Host == "" {
		return fmt.Sprintf("(a link of %d characters, not shown)", len(link))
	}
	hidden := len(u.RawQuery)
	u.User, u.RawQuery, u.RawFragment, u.Fragment = nil, "", "", ""
	if hidden == 0 {
		return u.String()
	}
	return fmt.Sprintf("%s?… (query with the signature hidden, %d characters)", u.String(), hidden)
}

// maskText masks in a storage host's answer the secrets the provider masks
// in its logs, and each value of link's query, in case the host quotes it.
func maskText(text, link string) string {
	for _, re := range mintlify.SecretPatterns() {
		text = re.ReplaceAllString(text, "${1}***${2}")
	}
	if u, err := url.Parse(link); err == nil {
		for _, values := range u.Query() {
			for _, v := range values {
				if len(v) >= 8 {
					text = strings.ReplaceAll(text, v, "***")
				}
			}
		}
	}
	return text
}

func step(title string) { fmt.Printf("\n==> %s\n", title) }

// runCLI runs a CLI command with its output to stdout and its errors to the
// terminal.
func runCLI(cmd *exec.Cmd, stdout io.Writer) error {
	cmd.Stdout = stdout
	cmd.Stderr = os.Stderr
	return cmd.Run()
}

func download(ctx context.Context, link string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, link, nil)
	if err != nil {
		return 0, fmt.Errorf("the bundle link %s is not a URL", maskLink(link))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		// A *url.Error quotes the whole link: keep only its cause.
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err
		}
		return 0, fmt.Errorf("downloading the bundle %s: %w", maskLink(link), err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, err
	}
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("downloading the bundle %s: HTTP %d: %s", maskLink(link), resp.StatusCode,
			maskText(strings.TrimSpace(string(body)), link))
	}
	return len(body), nil
}

func copyDir(src, dst string) error {
	entries, err := os.ReadDir(src)
	if err != nil {
		return fmt.Errorf("run the demo from the repository root: %w", err)
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".tf") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
