package contract

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	// vendorDirEnv points the drift test at a directory holding the
	// vendor's OpenAPI files; by default it looks in shared/api beside the
	// module root.
	vendorDirEnv = "MINTLIFY_VENDOR_SPEC_DIR"
	// requireVendorEnv, set to 1 (as CI does), makes `make test` build the
	// drift test even when no vendor copy is found, so that its absence
	// fails.
	requireVendorEnv = "MINTLIFY_REQUIRE_VENDOR_SPEC"
)

// vendorFiles are Mintlify's published OpenAPI files that the in-repo
// description follows: static export, the admin API's agent jobs, the
// External API's deployments, previews and automations, and the next,
// project-scoped static export (next/, not yet in Mintlify's English
// reference). Each file's server path (/v1 for static export) is read from
// the file.
var vendorFiles = []string{"static-export-openapi.json", "admin-openapi.json", "openapi.json",
	"next/static-export-openapi.json"}

// findVendorSpecs returns the directory of the vendor's files:
// MINTLIFY_VENDOR_SPEC_DIR, or else shared/api beside the module root, and
// what is wrong when they are not all there, worded for the person who
// built the drift test without them.
func findVendorSpecs(getenv func(string) string, moduleRoot string) (dir, problem string) {
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
		return dir, ""
	case explicit:
		return dir, fmt.Sprintf("%s=%s, but %s not there", vendorDirEnv, dir, isAre(absent))
	case len(absent) < len(vendorFiles):
		return dir, fmt.Sprintf("the vendor's OpenAPI copy in %s is incomplete: %s missing", dir, isAre(absent))
	default:
		return dir, fmt.Sprintf("the drift test was built (tag vendorspec; %s=%q) but the vendor's OpenAPI files (%s) are not in %s: "+
			"put them there (shared/api beside the checkout) or set %s to their directory",
			requireVendorEnv, getenv(requireVendorEnv), strings.Join(vendorFiles, ", "), dir, vendorDirEnv)
	}
}

// TestFindVendorSpecs proves where the drift test looks, and what it says
// when the vendor's files are not there.
func TestFindVendorSpecs(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	root := filepath.Join(tmp, "checkout")
	beside := filepath.Join(tmp, "shared", "api")
	elsewhere := filepath.Join(tmp, "elsewhere")
	partial := filepath.Join(tmp, "partial")
	today := filepath.Join(tmp, "today") // a copy from before the next contract
	for _, dir := range []string{root, beside, elsewhere, partial, today} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := []string{filepath.Join(partial, vendorFiles[0])}
	for _, name := range vendorFiles {
		files = append(files, filepath.Join(elsewhere, name))
		if !strings.HasPrefix(name, "next/") {
			files = append(files, filepath.Join(today, name))
		}
	}
	for _, f := range files {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name          string
		env           map[string]string
		wantDir       string
		wantProblem   bool
		wantInProblem string
	}{
		{"absent beside the checkout", nil, beside, true, vendorDirEnv},
		{"absent and required", map[string]string{requireVendorEnv: "1"}, beside, true, requireVendorEnv + `="1"`},
		{"named directory", map[string]string{vendorDirEnv: elsewhere, requireVendorEnv: "1"}, elsewhere, false, ""},
		{"named directory without them", map[string]string{vendorDirEnv: beside}, beside, true, "are not there"},
		{"incomplete copy", map[string]string{vendorDirEnv: partial}, partial, true, vendorFiles[1]},
		{"copy without the next contract", map[string]string{vendorDirEnv: today}, today, true,
			"next/static-export-openapi.json is not there"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir, problem := findVendorSpecs(func(k string) string { return tt.env[k] }, root)
			if dir != tt.wantDir || (problem != "") != tt.wantProblem || !strings.Contains(problem, tt.wantInProblem) {
				t.Errorf("findVendorSpecs = %q, %q; want %q, a problem %t, mentioning %q",
					dir, problem, tt.wantDir, tt.wantProblem, tt.wantInProblem)
			}
		})
	}
}

// isAre joins names for a sentence: "a is", "a and b are".
func isAre(names []string) string {
	if len(names) == 1 {
		return names[0] + " is"
	}
	return strings.Join(names, " and ") + " are"
}
