package main

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
)

// cyclonedxGomodVersion is the release of cyclonedx-gomod, which writes
// the SBOMs, that the GNUmakefile installs (CYCLONEDX_GOMOD_VERSION).
const cyclonedxGomodVersion = "1.10.0"

// sbomName is the name .goreleaser.yml gives the SBOM of the archive
// zipName: the archive's name with .sbom.json for .zip.
func sbomName(zipName string) string {
	return strings.TrimSuffix(zipName, ".zip") + ".sbom.json"
}

// cyclonedxBOM is what the check reads of a CycloneDX SBOM.
type cyclonedxBOM struct {
	BOMFormat string `json:"bomFormat"`
	Metadata  struct {
		Component  cyclonedxComponent `json:"component"`
		Properties []struct {
			Name  string `json:"name"`
			Value string `json:"value"`
		} `json:"properties"`
	} `json:"metadata"`
	Components []cyclonedxComponent `json:"components"`
}

type cyclonedxComponent struct {
	Name    string          `json:"name"`
	Version string          `json:"version"`
	Hashes  []cyclonedxHash `json:"hashes"`
}

type cyclonedxHash struct {
	Alg     string `json:"alg"`
	Content string `json:"content"`
}

// sha256 is the component's SHA-256 hash, hex-encoded; for a module,
// cyclonedx-gomod writes the hash of its h1: line.
func (c cyclonedxComponent) sha256() string {
	for _, h := range c.Hashes {
		if h.Alg == "SHA-256" {
			return h.Content
		}
	}
	return ""
}

// binaryProperty is the SBOM's metadata property that holds the SHA-256
// of the binary it describes.
const binaryProperty = "cdx:gomod:binary:hash:SHA-256"

// module is a module the binary links, as `go version -m` shows it.
type module struct{ path, version, sum string }

// linkedModules parses the dep lines of `go version -m`: each module the
// binary links, with its h1: hash; a replaced module counts as its
// replacement, whose version and hash the binary holds.
func linkedModules(info string) ([]module, error) {
	var mods []module
	for line := range strings.SplitSeq(info, "\n") {
		f := strings.Split(strings.TrimSpace(line), "\t")
		switch {
		case len(f) >= 3 && f[0] == "dep":
			m := module{path: f[1], version: f[2]}
			if len(f) > 3 {
				m.sum = f[3]
			}
			mods = append(mods, m)
		case len(f) >= 3 && f[0] == "=>" && len(mods) > 0:
			return nil, fmt.Errorf("the binary links %s replaced by %s: go.mod should replace no module of a release",
				mods[len(mods)-1].path, f[1])
		}
	}
	if len(mods) == 0 {
		return nil, fmt.Errorf("go version -m lists no dependency:\n%s", info)
	}
	return mods, nil
}

// checkSBOM checks the archive's SBOM against the binary it describes and
// the commit's go.mod and go.sum: its main component is the module at the
// release's version, with the SHA-256 of the zip's binary; its components
// are exactly the modules the binary links (`go version -m`), each at the
// version go.mod requires, with the hash go.sum holds for that version.
func (r *rehearsal) checkSBOM(ctx context.Context, b *releaseBuild) (string, error) {
	bin, _, info, err := r.extractBinary(ctx, b, "sbom")
	if err != nil {
		return "", err
	}
	linked, err := linkedModules(info)
	if err != nil {
		return "", err
	}
	required, sums, err := readModuleFiles(b.clone)
	if err != nil {
		return "", err
	}

	var bom cyclonedxBOM
	if err := json.Unmarshal(b.sbom, &bom); err != nil {
		return "", fmt.Errorf("%s is not JSON: %w", b.sbomName, err)
	}
	main := bom.Metadata.Component
	if bom.BOMFormat != "CycloneDX" || main.Name != modulePath || main.Version != "v"+r.version {
		return "", fmt.Errorf("%s is not a CycloneDX SBOM of %s v%s: format %q, main component %s %s",
			b.sbomName, modulePath, r.version, bom.BOMFormat, main.Name, main.Version)
	}
	binSum := sha256.Sum256(bin)
	var described string
	for _, p := range bom.Metadata.Properties {
		if p.Name == binaryProperty {
			described = p.Value
		}
	}
	if described != hex.EncodeToString(binSum[:]) {
		return "", fmt.Errorf("%s describes a binary with SHA-256 %q, not the zip's binary (%x)", b.sbomName, described, binSum)
	}

	problems := compareModules(linked, required, sums, bom.Components)
	if len(problems) > 0 {
		return "", fmt.Errorf("%s does not describe the binary:\n%s", b.sbomName, strings.Join(problems, "\n"))
	}
	return fmt.Sprintf("%s (CycloneDX) describes %s v%s with the binary's SHA-256 and lists the %d modules it links "+
		"(go version -m), each at its go.mod version with its go.sum hash", b.sbomName, main.Name, r.version, len(linked)), nil
}

// compareModules lists where the SBOM's components, the modules the binary
// links, go.mod's requirements and go.sum's hashes disagree.
func compareModules(linked []module, required, sums map[string]string, components []cyclonedxComponent) []string {
	listed := map[string]cyclonedxComponent{}
	for _, c := range components {
		listed[c.Name] = c
	}
	var problems []string
	for _, m := range linked {
		c, inSBOM := listed[m.path]
		delete(listed, m.path)
		want := sums[m.path+" "+m.version]
		switch {
		case required[m.path] != m.version:
			problems = append(problems, fmt.Sprintf("the binary links %s %s, go.mod requires %q", m.path, m.version, required[m.path]))
		case want == "":
			problems = append(problems, fmt.Sprintf("go.sum has no h1: hash of %s %s", m.path, m.version))
		case m.sum != want:
			problems = append(problems, fmt.Sprintf("the binary links %s %s with %s, go.sum holds %s", m.path, m.version, m.sum, want))
		case !inSBOM:
			problems = append(problems, fmt.Sprintf("the SBOM does not list %s %s", m.path, m.version))
		case c.Version != m.version:
			problems = append(problems, fmt.Sprintf("the SBOM lists %s at %s, the binary links %s", m.path, c.Version, m.version))
		case c.sha256() != h1Hex(want):
			problems = append(problems, fmt.Sprintf("the SBOM gives %s %s the SHA-256 %q, go.sum's %s is %s",
				m.path, m.version, c.sha256(), want, h1Hex(want)))
		}
	}
	for _, extra := range slices.Sorted(maps.Keys(listed)) {
		problems = append(problems, fmt.Sprintf("the SBOM lists %s %s, which the binary does not link", extra, listed[extra].Version))
	}
	return problems
}

// modulePath is the provider's module path.
const modulePath = "github.com/mintlify/terraform-provider-mintlify"

// readModuleFiles reads go.mod's requirements (module path to version) and
// go.sum's h1: hashes of module contents ("path version" to hash) in dir.
func readModuleFiles(dir string) (map[string]string, map[string]string, error) {
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return nil, nil, err
	}
	mod, err := modfile.ParseLax("go.mod", data, nil)
	if err != nil {
		return nil, nil, err
	}
	required := map[string]string{}
	for _, req := range mod.Require {
		required[req.Mod.Path] = req.Mod.Version
	}
	data, err = os.ReadFile(filepath.Join(dir, "go.sum"))
	if err != nil {
		return nil, nil, err
	}
	sums := map[string]string{}
	for line := range strings.SplitSeq(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 3 && !strings.HasSuffix(f[1], "/go.mod") {
			sums[f[0]+" "+f[1]] = f[2]
		}
	}
	return required, sums, nil
}

// h1Hex is the hex form of an h1: hash, as CycloneDX writes it.
func h1Hex(h1 string) string {
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(h1, "h1:"))
	if err != nil {
		return "(not base64: " + h1 + ")"
	}
	return hex.EncodeToString(raw)
}
