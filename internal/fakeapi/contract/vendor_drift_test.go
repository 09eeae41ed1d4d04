package contract

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

const (
	// vendorDirEnv points the drift test at a directory holding the
	// vendor's OpenAPI files; by default it looks in shared/api beside the
	// module root.
	vendorDirEnv = "MINTLIFY_VENDOR_SPEC_DIR"
	// requireVendorEnv, set to 1 (as CI does), makes a missing vendor copy
	// fail the drift test instead of skipping it.
	requireVendorEnv = "MINTLIFY_REQUIRE_VENDOR_SPEC"
)

// vendorFiles are the vendor's published OpenAPI files that the in-repo
// description follows. Each file's server path (/v1 for static export) is
// read from the file.
var vendorFiles = []string{"static-export-openapi.json", "admin-openapi.json"}

// undescribedVendorFields lists the vendor's fields that the in-repo
// description leaves out on purpose, keyed as TestVendorDrift reports them
// ("GET /v2/agent/{projectId}/job/{id} 200 .field"), each with the reason.
// Every other vendor field must be described. Keep it empty: a field left
// out here is one the fake never sends and the client is never tested with.
var undescribedVendorFields = map[string]string{}

// TestVendorDrift compares the in-repo description with the vendor's
// OpenAPI files, whenever a copy of them is found: every operation we
// describe must exist in the vendor's files at the same method and path,
// with the same parameters, status codes, and schemas (fields, types,
// formats, required flags, enum values, nullability).
func TestVendorDrift(t *testing.T) {
	dir, problem, fatal := findVendorSpecs(os.Getenv, moduleRoot(t))
	switch {
	case fatal:
		t.Fatal(problem)
	case problem != "":
		t.Skip(problem)
	}
	vendor := loadVendorSpecs(t, dir)
	ours := mustDescription(t)

	if diffs := diffAgainstVendor(ours, vendor, undescribedVendorFields); len(diffs) > 0 {
		t.Errorf("the in-repo description (mintlify.openapi.yaml) and the vendor's OpenAPI files in %s differ; pairs read in-repo vs vendor:\n  %s",
			dir, strings.Join(diffs, "\n  "))
	}

	// For the reader of -v output: what the vendor has that we don't use.
	described := operationsOf(ours)
	for _, doc := range vendor {
		for _, key := range slices.Sorted(maps.Keys(operationsOf(doc))) {
			if _, ok := described[key]; !ok {
				t.Logf("not described in-repo (unused by the provider): %s", key)
			}
		}
	}
}

// findVendorSpecs returns the directory of the vendor's files:
// MINTLIFY_VENDOR_SPEC_DIR, or else shared/api beside the module root.
// When the files are not all there it says why (problem), and whether the
// drift test must fail (fatal) rather than skip: it fails when
// MINTLIFY_REQUIRE_VENDOR_SPEC=1, when the directory was named explicitly,
// and when only some of the files are there.
func findVendorSpecs(getenv func(string) string, moduleRoot string) (dir, problem string, fatal bool) {
	dir, explicit := getenv(vendorDirEnv), true
	if dir == "" {
		dir, explicit = filepath.Join(filepath.Dir(moduleRoot), "shared", "api"), false
	}
	var absent []string
	for _, name := range vendorFiles {
		if _, err := os.Stat(filepath.Join(dir, name)); errors.Is(err, fs.ErrNotExist) {
			absent = append(absent, name)
		}
	}
	switch {
	case len(absent) == 0:
		return dir, "", false
	case explicit:
		return dir, fmt.Sprintf("%s=%s, but %s is not there", vendorDirEnv, dir, strings.Join(absent, " and ")), true
	case len(absent) < len(vendorFiles):
		return dir, fmt.Sprintf("the vendor's OpenAPI copy in %s is incomplete: %s is missing", dir, strings.Join(absent, " and ")), true
	case getenv(requireVendorEnv) == "1":
		return dir, fmt.Sprintf("%s=1, but the vendor's OpenAPI files (%s) are not in %s: put them there or set %s to their directory",
			requireVendorEnv, strings.Join(vendorFiles, ", "), dir, vendorDirEnv), true
	default:
		return dir, fmt.Sprintf("the drift check between mintlify.openapi.yaml and the vendor's OpenAPI files did not run: they are not in %s. "+
			"To run it, put %s there (shared/api beside the checkout) or set %s to their directory; "+
			"%s=1 turns their absence into a failure (CI sets it)",
			dir, strings.Join(vendorFiles, " and "), vendorDirEnv, requireVendorEnv), false
	}
}

// moduleRoot returns the nearest directory at or above the working
// directory (the package's, under go test) that holds go.mod.
func moduleRoot(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if fi, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil && !fi.IsDir() {
			return dir
		}
		if filepath.Dir(dir) == dir {
			t.Fatalf("no go.mod in %s or above it", wd)
		}
	}
}

// loadVendorSpecs loads and validates each vendor file in dir.
func loadVendorSpecs(t *testing.T, dir string) []*openapi3.T {
	t.Helper()
	var docs []*openapi3.T
	for _, name := range vendorFiles {
		path := filepath.Join(dir, name)
		loader := openapi3.NewLoader()
		doc, err := loader.LoadFromFile(path)
		if err != nil {
			t.Fatalf("load the vendor's OpenAPI file %s: %v", path, err)
		}
		if err := doc.Validate(loader.Context); err != nil {
			t.Fatalf("the vendor's OpenAPI file %s is invalid: %v", path, err)
		}
		docs = append(docs, doc)
	}
	return docs
}

// TestFindVendorSpecs proves when the drift test runs, skips and fails.
func TestFindVendorSpecs(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	root := filepath.Join(tmp, "checkout")
	beside := filepath.Join(tmp, "shared", "api")
	elsewhere := filepath.Join(tmp, "elsewhere")
	partial := filepath.Join(tmp, "partial")
	for _, dir := range []string{root, beside, elsewhere, partial} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(elsewhere, vendorFiles[0]), filepath.Join(elsewhere, vendorFiles[1]), filepath.Join(partial, vendorFiles[0])} {
		if err := os.WriteFile(f, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name          string
		env           map[string]string
		wantDir       string
		wantFatal     bool
		wantSkip      bool
		wantInProblem string
	}{
		{"absent beside the checkout", nil, beside, false, true, vendorDirEnv},
		{"absent and required", map[string]string{requireVendorEnv: "1"}, beside, true, false, requireVendorEnv + "=1"},
		{"named directory", map[string]string{vendorDirEnv: elsewhere, requireVendorEnv: "1"}, elsewhere, false, false, ""},
		{"named directory without them", map[string]string{vendorDirEnv: beside}, beside, true, false, "is not there"},
		{"incomplete copy", map[string]string{vendorDirEnv: partial}, partial, true, false, vendorFiles[1]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir, problem, fatal := findVendorSpecs(func(k string) string { return tt.env[k] }, root)
			if dir != tt.wantDir || fatal != tt.wantFatal || (problem != "" && !fatal) != tt.wantSkip || !strings.Contains(problem, tt.wantInProblem) {
				t.Errorf("findVendorSpecs = %q, %q, fatal %t; want %q, fatal %t, skip %t, a problem mentioning %q",
					dir, problem, fatal, tt.wantDir, tt.wantFatal, tt.wantSkip, tt.wantInProblem)
			}
		})
	}
}
