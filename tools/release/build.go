package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// buildTimeout bounds one goreleaser run; a cold one compiles the whole
// plugin framework and gRPC (about 2 minutes on 2 cores).
const buildTimeout = 15 * time.Minute

// releaseBuild is what one goreleaser run produced.
type releaseBuild struct {
	clone string // the temporary clone it built from
	dist  string
	// The files of the release, as a registry serves them.
	zipName, sumsName string
	zip, sums, sig    []byte
	// The archive's SBOM, which the registry does not serve.
	sbomName string
	sbom     []byte
}

// build clones the commit into the temporary directory under sub, tags it
// v0.1.0 there and runs `goreleaser release --skip=publish` with a copy of
// the clone's .goreleaser.yml narrowed to this platform: what the release
// workflow runs, minus the upload. Each build gets its own clone, at its
// own path, so that a path leaking into a build shows as a difference.
func (r *rehearsal) build(ctx context.Context, what, sub string) (*releaseBuild, error) {
	b := &releaseBuild{clone: filepath.Join(r.dir, sub, projectName)}
	b.dist = filepath.Join(b.clone, "dist")
	err := step(what, func() (string, error) {
		if err := r.clone(ctx, b.clone); err != nil {
			return "", err
		}
		// goreleaser check fails on deprecated settings too, which a
		// release only warns about.
		if _, err := r.goreleaser(ctx, b.clone, "check"); err != nil {
			return "", err
		}
		config := filepath.Join(r.dir, sub, "goreleaser.yml")
		if err := writeNarrowConfig(filepath.Join(b.clone, ".goreleaser.yml"), config); err != nil {
			return "", err
		}
		took, err := r.goreleaser(ctx, b.clone, "release", "--clean", "--skip=publish", "--config", config)
		if err != nil {
			return "", err
		}
		if err := b.read(r.version); err != nil {
			return "", err
		}
		if took != "" {
			took = "; go build took " + took
		}
		return fmt.Sprintf("goreleaser check, then release --skip=publish: %s (%.1f MB), its SBOM, SHA256SUMS, SHA256SUMS.sig%s",
			b.zipName, float64(len(b.zip))/1e6, took), nil
	})
	return b, err
}

// clone makes a clone of the commit at dir, with the tag v0.1.0 and the
// project's GitHub remote, which goreleaser reads; nothing is pushed.
func (r *rehearsal) clone(ctx context.Context, dir string) error {
	if _, err := git(ctx, "", "clone", "--quiet", "--no-tags", r.repo, dir); err != nil {
		return err
	}
	for _, args := range [][]string{
		{"checkout", "--quiet", "--detach", r.commit},
		{"remote", "set-url", "origin", originURL},
		{"tag", "v" + r.version},
	} {
		if _, err := git(ctx, dir, args...); err != nil {
			return err
		}
	}
	return nil
}

// goreleaser runs goreleaser in clone with the throwaway key for signing,
// without any token for publishing, and with the directory of the
// cyclonedx-gomod the rehearsal checked first on PATH (the SBOMs'
// command). Its log goes to a file beside the
// clone and is shown when it fails; goreleaser's own timing of the build
// is returned when it printed one (it does for slow steps).
func (r *rehearsal) goreleaser(ctx context.Context, clone string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, buildTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, r.opts.goreleaser, args...)
	cmd.Dir = clone
	cmd.Env = append(withoutVariables(os.Environ(), "GITHUB_TOKEN", "GITLAB_TOKEN", "GITEA_TOKEN", "GNUPGHOME", "GPG_FINGERPRINT", "PATH"),
		r.key.env()...)
	cmd.Env = append(cmd.Env, "PATH="+filepath.Dir(r.cyclonedxGomod)+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	_ = os.WriteFile(filepath.Join(filepath.Dir(clone), "goreleaser-"+args[0]+".log"), out, 0o600)
	if err != nil {
		return "", fmt.Errorf("goreleaser %s: %v\n%s", strings.Join(args, " "), err, tail(string(out), 30))
	}
	if m := buildTook.FindSubmatch(out); m != nil {
		return string(m[1]), nil
	}
	return "", nil
}

// buildTook finds goreleaser's timing of the build in its log:
// "building binaries ... took: 1m54s".
var buildTook = regexp.MustCompile(`(?s)building binaries.*?took: (\S+)`)

// read loads the zip, its SBOM, SHA256SUMS and its signature from dist.
func (b *releaseBuild) read(version string) error {
	prefix := projectName + "_" + version
	b.zipName = prefix + "_" + runtime.GOOS + "_" + runtime.GOARCH + ".zip"
	b.sbomName = sbomName(b.zipName)
	b.sumsName = prefix + "_SHA256SUMS"
	files := map[string]*[]byte{b.zipName: &b.zip, b.sbomName: &b.sbom, b.sumsName: &b.sums, b.sumsName + ".sig": &b.sig}
	for name, dst := range files {
		data, err := os.ReadFile(filepath.Join(b.dist, name))
		if err != nil {
			entries, _ := os.ReadDir(b.dist)
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			return fmt.Errorf("goreleaser did not make %s; dist holds: %s", name, strings.Join(names, ", "))
		}
		*dst = data
	}
	return nil
}

// writeNarrowConfig copies the goreleaser configuration at src to dst with
// every build's targets narrowed to this platform (goos, goarch, no ignore
// list); everything else, from archive names to signing, is kept.
func writeNarrowConfig(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	builds := mapValue(doc.Content[0], "builds")
	if builds == nil || builds.Kind != yaml.SequenceNode || len(builds.Content) == 0 {
		return fmt.Errorf("%s has no builds list to narrow", src)
	}
	for _, b := range builds.Content {
		setMapValue(b, "goos", stringList(runtime.GOOS))
		setMapValue(b, "goarch", stringList(runtime.GOARCH))
		deleteMapKey(b, "ignore")
	}
	var out bytes.Buffer
	out.WriteString("# Generated by tools/release from .goreleaser.yml: this platform only.\n")
	enc := yaml.NewEncoder(&out)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return err
	}
	return os.WriteFile(dst, out.Bytes(), 0o600)
}

func mapValue(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func setMapValue(m *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content[i+1] = v
			return
		}
	}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, v)
}

func deleteMapKey(m *yaml.Node, key string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = append(m.Content[:i], m.Content[i+2:]...)
			return
		}
	}
}

func stringList(values ...string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode}
	for _, v := range values {
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: v})
	}
	return n
}

// withoutVariables is env without the named variables.
func withoutVariables(env []string, names ...string) []string {
	var kept []string
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		drop := false
		for _, n := range names {
			drop = drop || name == n
		}
		if !drop {
			kept = append(kept, kv)
		}
	}
	return kept
}
