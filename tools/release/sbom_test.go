package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// What `go version -m` prints of a provider binary, cut short.
const versionM = `/tmp/terraform-provider-mintlify_v0.1.0: go1.26.8
	path	github.com/mintlify/terraform-provider-mintlify
	mod	github.com/mintlify/terraform-provider-mintlify	v0.1.0
	dep	github.com/fatih/color	v1.18.0	h1:S8gINlzdQ840/4pfAwic/ZE0djQEH3wM94VfqLTZcOM=
	dep	google.golang.org/grpc	v1.79.3	h1:abc=
	build	-trimpath=true
`

func TestLinkedModules(t *testing.T) {
	got, err := linkedModules(versionM)
	if err != nil {
		t.Fatal(err)
	}
	want := []module{
		{"github.com/fatih/color", "v1.18.0", "h1:S8gINlzdQ840/4pfAwic/ZE0djQEH3wM94VfqLTZcOM="},
		{"google.golang.org/grpc", "v1.79.3", "h1:abc="},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("linkedModules = %v, want %v", got, want)
	}
	replaced := versionM + "\t=>\t../grpc\t(devel)\t\n"
	if _, err := linkedModules(replaced); err == nil || !strings.Contains(err.Error(), "replaced") {
		t.Errorf("a replaced module: err = %v, want one naming the replacement", err)
	}
}

// cyclonedx-gomod writes a module's h1: hash as the hex of its SHA-256.
func TestH1Hex(t *testing.T) {
	got := h1Hex("h1:S8gINlzdQ840/4pfAwic/ZE0djQEH3wM94VfqLTZcOM=")
	if want := "4bc808365cdd43ce34ff8a5f03089cfd91347634041f7c0cf7855fa8b4d970e3"; got != want {
		t.Errorf("h1Hex = %s, want %s", got, want)
	}
}

// The rehearsal checks the tools the GNUmakefile installs, and the release
// workflow runs the same ones.
func TestPinnedToolVersionsAgree(t *testing.T) {
	makefile := readRepo(t, "GNUmakefile")
	workflow := readRepo(t, ".github/workflows/release.yml")
	for _, tool := range []struct{ variable, version string }{
		{"GORELEASER_VERSION", goreleaserVersion},
		{"CYCLONEDX_GOMOD_VERSION", cyclonedxGomodVersion},
	} {
		m := regexp.MustCompile(`(?m)^` + tool.variable + ` := v(\S+)$`).FindStringSubmatch(makefile)
		if m == nil || m[1] != tool.version {
			t.Errorf("the GNUmakefile pins %s = %v, tools/release checks v%s", tool.variable, m, tool.version)
		}
	}
	for _, want := range []string{"version: v" + goreleaserVersion + "\n", "make install-cyclonedx-gomod\n"} {
		if !strings.Contains(workflow, want) {
			t.Errorf(".github/workflows/release.yml does not hold %q", want)
		}
	}
}

// scripts/check-pinned-actions, which make lint runs, passes the
// repository's workflows and fails on an action pinned by tag or branch.
func TestCheckPinnedActions(t *testing.T) {
	script := filepath.Join("..", "..", "scripts", "check-pinned-actions")
	if out, err := exec.Command(script).CombinedOutput(); err != nil {
		t.Errorf("the repository's workflows: %v\n%s", err, out)
	}
	const sha = "d23441a48e516b6c34aea4fa41551a30e30af803"
	for name, step := range map[string]string{
		"pinned":          "- uses: actions/checkout@" + sha + " # v6.1.0",
		"pinned, no dash": "  uses: actions/checkout@" + sha + " # v6.1.0",
		"local":           "- uses: ./.github/actions/setup",
		"tag":             "- uses: actions/checkout@v6",
		"no comment":      "- uses: actions/checkout@" + sha,
		"short SHA":       "- uses: actions/checkout@d23441a # v6.1.0",
		"branch":          "- uses: actions/checkout@main # v6.1.0",
		"quoted":          "- uses: 'actions/checkout@v6'",
	} {
		t.Run(name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "w.yml")
			if err := os.WriteFile(file, []byte("jobs:\n  j:\n    steps:\n      "+step+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(script, file).CombinedOutput()
			if pass := strings.HasPrefix(name, "pinned") || name == "local"; pass != (err == nil) {
				t.Errorf("%q: pass = %v, want %v\n%s", step, err == nil, pass, out)
			}
		})
	}
}

func readRepo(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(path)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// The SBOM check finds each way an SBOM, the binary, go.mod and go.sum can
// disagree.
func TestCompareModules(t *testing.T) {
	const (
		path = "github.com/fatih/color"
		h1   = "h1:S8gINlzdQ840/4pfAwic/ZE0djQEH3wM94VfqLTZcOM="
		hash = "4bc808365cdd43ce34ff8a5f03089cfd91347634041f7c0cf7855fa8b4d970e3"
	)
	component := func(name, version, sha string) cyclonedxComponent {
		return cyclonedxComponent{Name: name, Version: version, Hashes: []cyclonedxHash{{"SHA-256", sha}}}
	}
	linked := []module{{path, "v1.18.0", h1}}
	required := map[string]string{path: "v1.18.0"}
	sums := map[string]string{path + " v1.18.0": h1}
	good := []cyclonedxComponent{component(path, "v1.18.0", hash)}
	if problems := compareModules(linked, required, sums, good); len(problems) > 0 {
		t.Fatalf("an SBOM that agrees: %v", problems)
	}
	for name, tc := range map[string]struct {
		linked     []module
		required   map[string]string
		sums       map[string]string
		components []cyclonedxComponent
		want       string
	}{
		"not listed":      {linked, required, sums, nil, "does not list " + path},
		"other version":   {linked, required, sums, []cyclonedxComponent{component(path, "v1.17.0", hash)}, "at v1.17.0"},
		"other hash":      {linked, required, sums, []cyclonedxComponent{component(path, "v1.18.0", "00")}, "SHA-256"},
		"extra component": {linked, required, sums, append(good, component("example.com/x", "v1.0.0", "00")), "example.com/x v1.0.0, which the binary does not link"},
		"go.mod differs":  {linked, map[string]string{path: "v1.17.0"}, sums, good, `go.mod requires "v1.17.0"`},
		"not in go.sum":   {linked, required, map[string]string{}, good, "go.sum has no h1: hash"},
		"binary's hash":   {[]module{{path, "v1.18.0", "h1:other="}}, required, sums, good, "with h1:other="},
	} {
		t.Run(name, func(t *testing.T) {
			problems := compareModules(tc.linked, tc.required, tc.sums, tc.components)
			if len(problems) != 1 || !strings.Contains(problems[0], tc.want) {
				t.Errorf("problems = %q, want one saying %q", problems, tc.want)
			}
		})
	}
}
