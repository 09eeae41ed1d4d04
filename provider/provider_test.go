package provider_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/providertest"
)

// bridgeMain is the program of a separate module that serves the provider
// through its public constructor, as Pulumi's pf bridge and Crossplane's
// upjet take a plugin-framework provider.
const bridgeMain = `package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	mintlify "github.com/mintlify/terraform-provider-mintlify/provider"
)

func main() {
	debug := flag.Bool("debug", false, "")
	flag.Parse()
	err := providerserver.Serve(context.Background(), mintlify.New("bridged"), providerserver.ServeOpts{
		Address: "registry.terraform.io/mintlify/mintlify",
		Debug:   *debug,
	})
	if err != nil {
		log.Fatal(err)
	}
}
`

// TestSeparateModuleServesTheProvider builds a module of its own that
// imports this one (through a replace directive) and serves the provider
// through New; Terraform then reads its schema from that binary.
func TestSeparateModuleServesTheProvider(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	goMod := fmt.Sprintf("module example.com/bridge\n\ngo 1.26\n\nrequire github.com/mintlify/terraform-provider-mintlify v0.0.0\n\n"+
		"replace github.com/mintlify/terraform-provider-mintlify => %s\n", root)
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{"go.mod": goMod, "go.sum": string(sum), "main.go": bridgeMain} {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "terraform-provider-mintlify"), ".")
	// Everything the module needs is this module's: nothing is downloaded.
	build.Dir, build.Env = mod, append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the separate module: %v\n%s", err, out)
	}

	work := t.TempDir()
	rc := filepath.Join(work, "cli.tfrc")
	cliConfig := fmt.Sprintf("provider_installation {\n  dev_overrides {\n    \"mintlify/mintlify\" = %q\n  }\n  direct {}\n}\n", bin)
	config := "terraform {\n  required_providers {\n    mintlify = { source = \"mintlify/mintlify\" }\n  }\n}\n"
	for name, content := range map[string]string{rc: cliConfig, filepath.Join(work, "main.tf"): config} {
		if err := os.WriteFile(name, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(providertest.CLIPath(t), "providers", "schema", "-json")
	cmd.Dir, cmd.Env = work, append(os.Environ(), "TF_CLI_CONFIG_FILE="+rc, "CHECKPOINT_DISABLE=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("terraform providers schema with the separate module's binary: %v\n%s", err, out)
	}
	var schema struct {
		Schemas map[string]struct {
			Resources map[string]json.RawMessage `json:"resource_schemas"`
		} `json:"provider_schemas"`
	}
	if err := json.Unmarshal(out, &schema); err != nil {
		t.Fatal(err)
	}
	var served []string
	for _, s := range schema.Schemas {
		for name := range s.Resources {
			served = append(served, name)
		}
	}
	if !strings.Contains(strings.Join(served, " "), "mintlify_static_export_bundle") {
		t.Errorf("the bridged binary serves no mintlify_static_export_bundle; resources: %v", served)
	}
}
