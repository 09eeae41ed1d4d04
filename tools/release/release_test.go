package main

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// The generated configuration differs from .goreleaser.yml in the build
// targets only.
func TestNarrowConfigKeepsEverythingButTheTargets(t *testing.T) {
	src := filepath.Join("..", "..", ".goreleaser.yml")
	dst := filepath.Join(t.TempDir(), "goreleaser.yml")
	if err := writeNarrowConfig(src, dst); err != nil {
		t.Fatal(err)
	}
	original, narrowed := readYAML(t, src), readYAML(t, dst)
	for _, build := range builds(t, narrowed) {
		if !reflect.DeepEqual(build["goos"], []any{runtime.GOOS}) || !reflect.DeepEqual(build["goarch"], []any{runtime.GOARCH}) {
			t.Errorf("narrowed targets: goos %v, goarch %v; want [%s], [%s]", build["goos"], build["goarch"], runtime.GOOS, runtime.GOARCH)
		}
	}
	for _, doc := range []map[string]any{original, narrowed} {
		for _, build := range builds(t, doc) {
			for _, key := range []string{"goos", "goarch", "ignore"} {
				delete(build, key)
			}
		}
	}
	if !reflect.DeepEqual(original, narrowed) {
		t.Errorf("the narrowed configuration differs beyond the targets:\n%v\n%v", original, narrowed)
	}
}

// builds is the builds list of a goreleaser configuration.
func builds(t *testing.T, doc map[string]any) []map[string]any {
	t.Helper()
	list, ok := doc["builds"].([]any)
	if !ok || len(list) == 0 {
		t.Fatalf("no builds list in %v", doc)
	}
	var out []map[string]any
	for _, b := range list {
		build, ok := b.(map[string]any)
		if !ok {
			t.Fatalf("a build is not a mapping: %v", b)
		}
		out = append(out, build)
	}
	return out
}

func readYAML(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// The quickstart as it is, and as it reads once it pins a version: either
// way the copy requires the provider from the registry under test, once.
func TestCopyQuickstartPointsAtTheRegistry(t *testing.T) {
	quickstart, err := os.ReadFile(filepath.Join("..", "..", "examples", "quickstart", "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	pinned := strings.Replace(string(quickstart), `source = "mintlify/mintlify"`,
		"source  = \"mintlify/mintlify\"\n      version = \"~> 0.1.0\"", 1)
	for name, hcl := range map[string]string{"as it is": string(quickstart), "pinned": pinned} {
		t.Run(name, func(t *testing.T) {
			src, dst := t.TempDir(), t.TempDir()
			if err := os.WriteFile(filepath.Join(src, "main.tf"), []byte(hcl), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := copyQuickstart(src, dst, "localhost:1234/mintlify/mintlify", "~> 0.1.0"); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join(dst, "main.tf"))
			if err != nil {
				t.Fatal(err)
			}
			want := "    mintlify = {\n      source  = \"localhost:1234/mintlify/mintlify\"\n      version = \"~> 0.1.0\"\n    }\n"
			if !strings.Contains(string(got), want) || strings.Count(string(got), "source  =") != 1 || strings.Count(string(got), "~> 0.1.0") != 1 {
				t.Errorf("the copy does not require the provider from the registry once:\n%s", got)
			}
		})
	}
}

func TestCopyQuickstartFailsWithoutTheRequirement(t *testing.T) {
	src := t.TempDir()
	if err := os.WriteFile(filepath.Join(src, "main.tf"), []byte("terraform {}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	err := copyQuickstart(src, t.TempDir(), "localhost:1234/mintlify/mintlify", "~> 0.1.0")
	if err == nil || !strings.Contains(err.Error(), "found 0") {
		t.Errorf("err = %v, want one saying the requirement was found 0 times", err)
	}
}

// A lock file as Terraform writes it.
func TestReadLock(t *testing.T) {
	lock := `# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.

provider "localhost:1234/mintlify/mintlify" {
  version     = "0.1.0"
  constraints = "~> 0.1.0"
  hashes = [
    "h1:abc=",
    "zh:0123",
    "zh:4567",
  ]
}
`
	got, err := readLock([]byte(lock), "localhost:1234/mintlify/mintlify")
	if err != nil {
		t.Fatal(err)
	}
	want := lockedProvider{version: "0.1.0", constraints: "~> 0.1.0", hashes: []string{"zh:4567", "h1:abc=", "zh:0123"}}
	if err := got.equal(want); err != nil {
		t.Error(err)
	}
	want.hashes = want.hashes[1:]
	if err := got.equal(want); err == nil {
		t.Error("a lock file with a hash too many compares equal")
	}
	if _, err := readLock([]byte(lock), "localhost:1234/other/mintlify"); err == nil {
		t.Error("a lock file for another provider reads as this one's")
	}
}
