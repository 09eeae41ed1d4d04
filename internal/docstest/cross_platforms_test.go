package docstest

import (
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// releasePlatforms are the GOOS/GOARCH pairs that .goreleaser.yml builds:
// every goos with every goarch, less its ignore list and the pairs that Go
// has no port for (darwin/arm), which goreleaser skips.
func releasePlatforms(t *testing.T) []string {
	t.Helper()
	type pair struct {
		GOOS   string `yaml:"goos"`
		GOARCH string `yaml:"goarch"`
	}
	var release struct {
		Builds []struct {
			GOOS   []string `yaml:"goos"`
			GOARCH []string `yaml:"goarch"`
			Ignore []pair   `yaml:"ignore"`
		} `yaml:"builds"`
	}
	if err := yaml.Unmarshal([]byte(readRepoFile(t, ".goreleaser.yml")), &release); err != nil || len(release.Builds) != 1 {
		t.Fatalf(".goreleaser.yml: %v, %d builds, want one", err, len(release.Builds))
	}
	ports, err := exec.Command("go", "tool", "dist", "list").Output()
	if err != nil {
		t.Fatalf("go tool dist list: %v", err)
	}
	build := release.Builds[0]
	var platforms []string
	for _, goos := range build.GOOS {
		for _, goarch := range build.GOARCH {
			ignored := slices.Contains(build.Ignore, pair{goos, goarch})
			if p := goos + "/" + goarch; !ignored && slices.Contains(strings.Fields(string(ports)), p) {
				platforms = append(platforms, p)
			}
		}
	}
	slices.Sort(platforms)
	return platforms
}

// TestCrossBuildsEveryReleasePlatform: `make cross`, which .ci/run runs,
// builds exactly the platforms that a release ships, and vets the tests on
// one platform of each of their systems.
func TestCrossBuildsEveryReleasePlatform(t *testing.T) {
	t.Parallel()
	makefile := readRepoFile(t, "GNUmakefile")
	m := regexp.MustCompile(`(?m)^RELEASE_PLATFORMS := ((?:.*\\\n)*.*)$`).FindStringSubmatch(makefile)
	if m == nil {
		t.Fatal("GNUmakefile: no RELEASE_PLATFORMS")
	}
	got := strings.Fields(strings.ReplaceAll(m[1], "\\\n", " "))
	slices.Sort(got)
	if want := releasePlatforms(t); !slices.Equal(got, want) {
		t.Errorf("GNUmakefile's RELEASE_PLATFORMS are %v, .goreleaser.yml builds %v", got, want)
	}
	vet := regexp.MustCompile(`(?m)^VET_PLATFORMS := (.*)$`).FindStringSubmatch(makefile)
	if vet == nil {
		t.Fatal("GNUmakefile: no VET_PLATFORMS")
	}
	for _, p := range got {
		goos, _, _ := strings.Cut(p, "/")
		if !strings.Contains(" "+vet[1], " "+goos+"/") {
			t.Errorf("GNUmakefile's VET_PLATFORMS (%s) vet no platform of %s, which a release ships", vet[1], goos)
		}
	}
	if !regexp.MustCompile(`(?m)^stage cross$`).MatchString(readRepoFile(t, ".ci/run")) {
		t.Error(".ci/run does not run make cross")
	}
}
