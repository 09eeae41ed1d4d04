package docstest

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// The versions the docs state are the versions the matrix runs: the CI
// workflow's matrix (.github/workflows/test.yml) is the one list, and the
// README, docs/index.md, CONTRIBUTING.md, the guides, the resource pages and
// the examples must agree with it; so must make test-compat's defaults.

// matrix is the CLIs of the workflow's compat job, as "1.5.7" or "1.14.*"
// by CLI ("terraform", "tofu").
func matrix(t *testing.T) map[string][]string {
	t.Helper()
	return workflowMatrix(t, ".github/workflows/test.yml", "compat")
}

// workflowMatrix is the CLIs of a workflow's job, as matrix gives them.
func workflowMatrix(t *testing.T, rel, job string) map[string][]string {
	t.Helper()
	raw := readRepoFile(t, rel)
	var workflow struct {
		Jobs map[string]struct {
			Strategy struct {
				Matrix struct {
					Include []struct{ CLI, Version string }
				}
			}
		}
	}
	if err := yaml.Unmarshal([]byte(raw), &workflow); err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	clis := map[string][]string{}
	for _, entry := range workflow.Jobs[job].Strategy.Matrix.Include {
		if !regexp.MustCompile(`^\d+\.\d+\.(\d+|\*)$`).MatchString(entry.Version) {
			t.Errorf("the compat matrix runs %s %q: name a release (1.16.4) or a minor's latest (1.14.*), so that the docs can say which", entry.CLI, entry.Version)
		}
		clis[entry.CLI] = append(clis[entry.CLI], entry.Version)
	}
	if len(clis["terraform"]) == 0 || len(clis["tofu"]) == 0 {
		t.Fatalf("the %s matrix of %s has no Terraform or no OpenTofu: %v", job, rel, clis)
	}
	return clis
}

// TestNightlyRunsEveryTestUnderTheMatrix: the nightly workflow runs every
// test (make test-matrix) under the same CLIs as the pull requests' tier.
func TestNightlyRunsEveryTestUnderTheMatrix(t *testing.T) {
	t.Parallel()
	if got, want := workflowMatrix(t, ".github/workflows/nightly.yml", "compat"), matrix(t); !reflect.DeepEqual(got, want) {
		t.Errorf("nightly.yml runs %v, test.yml's compat job %v: they must be the same CLIs", got, want)
	}
	if raw := readRepoFile(t, ".github/workflows/nightly.yml"); !strings.Contains(raw, "make test-matrix") {
		t.Error("nightly.yml does not run make test-matrix")
	}
}

// readRepoFile is a file of the repository, by its path from the root.
func readRepoFile(t *testing.T, rel string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// minor is "1.12" of "1.12.6" or "1.12.*".
func minor(version string) string {
	parts := strings.SplitN(version, ".", 3)
	return parts[0] + "." + parts[1]
}

// compareVersions orders "1.5.7" before "1.14.*" before "1.16.4".
func compareVersions(a, b string) int {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := range min(len(pa), len(pb)) {
		na, errA := strconv.Atoi(pa[i])
		nb, errB := strconv.Atoi(pb[i])
		if errA != nil || errB != nil {
			return strings.Compare(pa[i], pb[i])
		}
		if na != nb {
			return na - nb
		}
	}
	return len(pa) - len(pb)
}

// spoken is how the docs name a matrix entry: "1.16.4", or "the latest
// 1.14" for "1.14.*".
func spoken(version string) string {
	if strings.HasSuffix(version, ".*") {
		return "the latest " + minor(version)
	}
	return version
}

// testedWith is the sentence's list of the CLIs the matrix runs:
// "Terraform 1.5.7, 1.11.4, the latest 1.14 and 1.16.4, and OpenTofu 1.12.6".
func testedWith(clis map[string][]string) string {
	list := func(versions []string) string {
		versions = slices.SortedFunc(slices.Values(versions), compareVersions)
		words := make([]string, len(versions))
		for i, v := range versions {
			words[i] = spoken(v)
		}
		if len(words) == 1 {
			return words[0]
		}
		return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
	}
	return "Terraform " + list(clis["terraform"]) + ", and OpenTofu " + list(clis["tofu"])
}

// oneLine joins a document's lines, so that a sentence wrapped anywhere
// reads as one.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestDocsNameTheCLIsTheMatrixRuns: the README, docs/index.md (from its
// template) and CONTRIBUTING.md list exactly the CLIs of the CI matrix, and
// make test-compat's default newest Terraform is the matrix's newest.
func TestDocsNameTheCLIsTheMatrixRuns(t *testing.T) {
	t.Parallel()
	clis := matrix(t)
	want := testedWith(clis)
	for _, rel := range []string{"README.md", "templates/index.md.tmpl", "docs/index.md", "CONTRIBUTING.md"} {
		if !strings.Contains(oneLine(readRepoFile(t, rel)), want) {
			t.Errorf("%s does not say that the matrix runs %q (the compat job of .github/workflows/test.yml)", rel, want)
		}
	}

	newest := slices.MaxFunc(clis["terraform"], compareVersions)
	makefile := readRepoFile(t, "GNUmakefile")
	defaults := regexp.MustCompile(`(?m)^DEFAULT_CLIS :=((?:.*\\\n)*.*)$`).FindStringSubmatch(makefile)
	if defaults == nil {
		t.Fatal("GNUmakefile: no DEFAULT_CLIS")
	}
	var local []string
	for _, m := range regexp.MustCompile(`terraform-(\d+\.\d+\.\d+)`).FindAllStringSubmatch(defaults[1], -1) {
		local = append(local, m[1])
	}
	if len(local) == 0 || slices.MaxFunc(local, compareVersions) != newest {
		t.Errorf("make test-compat's newest Terraform is %v, the CI matrix's %s: they must be the same release", local, newest)
	}
}

// openTofuMention is a version the docs give for OpenTofu: "OpenTofu 1.12
// or later", "OpenTofu 1.12.6", "Terraform 1.12 or later, OpenTofu 1.12".
var openTofuMention = regexp.MustCompile(`OpenTofu,? (?:v)?(\d+\.\d+(?:\.\d+)?)`)

// tofuColumn is a row of a compatibility table whose last column is
// OpenTofu's: "| Ephemeral resource | 1.10 or later | 1.12 or later |".
var tofuColumn = regexp.MustCompile(`(?m)^\|.*\| *(\d+\.\d+)[^|]*\| *$`)

// TestOpenTofuHasOneMinimum: every OpenTofu version the docs mention is
// the oldest OpenTofu the CI matrix runs (its minor, "1.12", for "or later";
// a full release must be one the matrix runs), in the README, CONTRIBUTING,
// docs/, templates/ and examples/; and make test-compat builds that release.
func TestOpenTofuHasOneMinimum(t *testing.T) {
	t.Parallel()
	clis := matrix(t)
	oldest := slices.MinFunc(clis["tofu"], compareVersions)
	minimum := minor(oldest)

	files := []string{"README.md", "CONTRIBUTING.md"}
	for _, dir := range []string{"docs", "templates", "examples"} {
		for _, ext := range []string{".md", ".tmpl", ".tf"} {
			if err := walkFiles(filepath.Join("..", ".."), dir, ext, func(rel string) error {
				files = append(files, rel)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		}
	}
	mentions := 0
	for _, rel := range files {
		text := oneLine(readRepoFile(t, rel))
		for _, m := range openTofuMention.FindAllStringSubmatch(text, -1) {
			mentions++
			if problem := tofuMentionProblem(m[1], minimum, clis["tofu"]); problem != "" {
				t.Errorf("%s: %q %s", rel, m[0], problem)
			}
		}
		if !strings.Contains(readRepoFile(t, rel), "| OpenTofu |") {
			continue
		}
		for _, m := range tofuColumn.FindAllStringSubmatch(readRepoFile(t, rel), -1) {
			mentions++
			if m[1] != minimum {
				t.Errorf("%s: the compatibility table gives OpenTofu %s in %q: OpenTofu %s is the oldest the CI matrix runs, and the one minimum", rel, m[1], m[0], minimum)
			}
		}
	}
	if mentions < 10 {
		t.Errorf("only %d mentions of an OpenTofu version found: is the pattern still right?", mentions)
	}

	script := regexp.MustCompile(`OPENTOFU_VERSION:-(\d+\.\d+\.\d+)`).FindStringSubmatch(readRepoFile(t, "scripts/opentofu"))
	if script == nil || !slices.Contains(clis["tofu"], script[1]) {
		t.Errorf("scripts/opentofu builds OpenTofu %v for make test-compat, which the CI matrix (%v) does not run", script, clis["tofu"])
	} else if !strings.Contains(readRepoFile(t, "GNUmakefile"), "tofu-"+script[1]) {
		t.Errorf("GNUmakefile's DEFAULT_CLIS does not name tofu-%s, the release scripts/opentofu builds", script[1])
	}
}

// tofuMentionProblem says what is wrong with a version given for OpenTofu,
// or "".
func tofuMentionProblem(version, minimum string, runs []string) string {
	if strings.Count(version, ".") == 2 {
		if slices.Contains(runs, version) || slices.Contains(runs, minor(version)+".*") {
			return ""
		}
		return fmt.Sprintf("names a release the CI matrix does not run (%v)", runs)
	}
	if version != minimum {
		return fmt.Sprintf("gives OpenTofu %s: OpenTofu %s is the oldest the CI matrix runs, and the one minimum everywhere", version, minimum)
	}
	return ""
}
