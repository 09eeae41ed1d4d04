//go:build vendorspec

// The drift test needs the vendor's OpenAPI files, which are not in the
// repository, so it is built only with the vendorspec tag: `make test` sets
// it when a copy is found (MINTLIFY_VENDOR_SPEC_DIR, or shared/api beside
// the checkout) or when MINTLIFY_REQUIRE_VENDOR_SPEC=1 (CI), and then a
// missing copy fails the test. A plain clone builds no drift test and skips
// nothing.

package contract

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// undescribedVendorFields lists the vendor's fields that the in-repo
// description leaves out on purpose, keyed as TestVendorDrift reports them
// ("GET /v2/agent/{projectId}/job/{id} 200 .field"), each with the reason.
// Every other vendor field must be described. Keep it empty: a field left
// out here is one the fake never sends and the client is never tested with.
var undescribedVendorFields = map[string]string{}

// TestVendorDrift compares the in-repo description with the vendor's
// OpenAPI files (see findVendorSpecs for where): every operation we
// describe must exist in the vendor's files at the same method and path,
// with the same parameters, status codes, and schemas (fields, types,
// formats, required flags, enum values, nullability).
func TestVendorDrift(t *testing.T) {
	dir, problem := findVendorSpecs(os.Getenv, moduleRoot(t))
	if problem != "" {
		t.Fatal(problem)
	}
	vendor := loadVendorSpecs(t, dir)
	ours := mustDescription(t)

	if diffs := diffAgainstVendor(ours, vendor, undescribedVendorFields); len(diffs) > 0 {
		t.Errorf("the in-repo description (mintlify.openapi.yaml) and the vendor's OpenAPI files in %s differ; pairs read in-repo vs vendor:\n  %s",
			dir, strings.Join(diffs, "\n  "))
	}

	// For the reader of -v output: what we describe ahead of the vendor's
	// files, and what the vendor has that we don't use.
	described := operationsOf(ours)
	for _, key := range slices.Sorted(maps.Keys(described)) {
		if op := described[key].op; aheadOfVendor(op) {
			t.Logf("described in-repo ahead of the vendor's files: %s (%v)", key, op.Extensions[notInVendorSpec])
		}
	}
	for _, doc := range vendor {
		for _, key := range slices.Sorted(maps.Keys(operationsOf(doc))) {
			if _, ok := described[key]; !ok {
				t.Logf("not described in-repo (unused by the provider): %s", key)
			}
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
