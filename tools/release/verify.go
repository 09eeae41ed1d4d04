package main

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// compareBuilds requires the two builds' zips, SBOMs and SHA256SUMS to be
// byte-identical, and says what differs when they are not. The signatures
// differ by design: a signature holds the time it was made.
func compareBuilds(a, b *releaseBuild) (string, error) {
	if !bytes.Equal(a.zip, b.zip) {
		return "", fmt.Errorf("the two builds made different zips (%s):\n%s", a.zipName, zipDifferences(a.zip, b.zip))
	}
	if !bytes.Equal(a.sbom, b.sbom) {
		return "", fmt.Errorf("the two builds made different SBOMs (%s):\n%s\n---\n%s", a.sbomName, a.sbom, b.sbom)
	}
	if !bytes.Equal(a.sums, b.sums) {
		return "", fmt.Errorf("the two builds made different %s:\n%s\n---\n%s", a.sumsName, a.sums, b.sums)
	}
	sum := sha256.Sum256(a.zip)
	return fmt.Sprintf("zip sha256 %x…, SBOM and %s identical", sum[:8], a.sumsName), nil
}

// zipDifferences lists the entries of two zips whose name, time, mode or
// content differ.
func zipDifferences(a, b []byte) string {
	describe := func(data []byte) []string {
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return []string{"not a zip: " + err.Error()}
		}
		var lines []string
		for _, f := range zr.File {
			lines = append(lines, fmt.Sprintf("%s %s %s crc32 %08x", f.Name, f.Modified.UTC().Format("2006-01-02T15:04:05Z"), f.Mode(), f.CRC32))
		}
		return lines
	}
	la, lb := describe(a), describe(b)
	var out []string
	for i := 0; i < max(len(la), len(lb)); i++ {
		var x, y string
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y {
			out = append(out, "build 1: "+x, "build 2: "+y)
		}
	}
	if len(out) == 0 {
		return "the entries agree in name, time, mode and content: the zips differ in their own metadata"
	}
	return strings.Join(out, "\n")
}

// inspectBinary takes the provider binary out of the zip and checks what
// `go version -m` says of it (a static, -trimpath build of the commit,
// stamped with the tag) and that it holds no path of the machine that
// built it: not the clones, the checkout, the module cache or GOROOT.
func (r *rehearsal) inspectBinary(ctx context.Context, builds ...*releaseBuild) (string, error) {
	bin, entries, info, err := r.extractBinary(ctx, builds[0], "inspect")
	if err != nil {
		return "", err
	}
	want := []string{
		"\tmod\tgithub.com/mintlify/terraform-provider-mintlify\tv" + r.version,
		"\tbuild\t-trimpath=true",
		"\tbuild\tCGO_ENABLED=0",
		"\tbuild\tvcs.revision=" + r.commit,
		"\tbuild\tvcs.modified=false",
	}
	for _, w := range want {
		if !strings.Contains(info, w+"\n") && !strings.Contains(info, w+"\t") {
			return "", fmt.Errorf("go version -m does not show %q:\n%s", strings.TrimSpace(w), info)
		}
	}
	goEnv, err := exec.CommandContext(ctx, "go", "env", "GOROOT", "GOMODCACHE").Output()
	if err != nil {
		return "", fmt.Errorf("go env: %w", err)
	}
	paths := append(strings.Fields(string(goEnv)), r.repo, r.dir)
	for _, b := range builds {
		paths = append(paths, b.clone)
	}
	for _, p := range paths {
		if bytes.Contains(bin, []byte(p)) {
			return "", fmt.Errorf("the binary holds the build machine's path %s", p)
		}
	}
	return fmt.Sprintf("the zip holds %s; go version -m: v%s at %s, unmodified, -trimpath, CGO_ENABLED=0; "+
		"no build path in its %.1f MB", strings.Join(entries, ", "), r.version, r.commit[:12], float64(len(bin))/1e6), nil
}

// extractBinary writes the provider binary of b's zip to the temporary
// directory sub and returns it, the names of the zip's entries and what
// `go version -m` says of it.
func (r *rehearsal) extractBinary(ctx context.Context, b *releaseBuild, sub string) (bin []byte, entries []string, info string, err error) {
	name := projectName + "_v" + r.version
	if bin, entries, err = unzipEntry(b.zip, name); err != nil {
		return nil, nil, "", err
	}
	path := filepath.Join(r.dir, sub, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, nil, "", err
	}
	if err := os.WriteFile(path, bin, 0o755); err != nil {
		return nil, nil, "", err
	}
	out, err := exec.CommandContext(ctx, "go", "version", "-m", path).CombinedOutput()
	if err != nil {
		return nil, nil, "", fmt.Errorf("go version -m: %v\n%s", err, out)
	}
	return bin, entries, string(out), nil
}

// unzipEntry returns the content of the zip's entry name and the names of
// all its entries.
func unzipEntry(data []byte, name string) ([]byte, []string, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, nil, err
	}
	var names []string
	var content []byte
	for _, f := range zr.File {
		names = append(names, f.Name)
		if f.Name != name {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, nil, err
		}
		var buf bytes.Buffer
		_, err = buf.ReadFrom(rc)
		_ = rc.Close()
		if err != nil {
			return nil, nil, err
		}
		content = buf.Bytes()
	}
	if content == nil {
		return nil, names, fmt.Errorf("the zip has no %s (it holds %s): Terraform looks for terraform-provider-<type>*", name, strings.Join(names, ", "))
	}
	return content, names, nil
}
