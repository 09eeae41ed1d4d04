package docstest

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// exampleBlock is one configuration a user may copy: a fenced ```hcl,
// ```terraform or ```tf block of README.md or of a template under
// templates/, or a .tf file under examples/ (which the templates embed).
type exampleBlock struct {
	source string // the file, relative to the repository root, with slashes
	line   int    // the line of source where the configuration starts
	text   string
	// fragment is the reason a block is deliberately not a whole
	// configuration, from a marker: `<!-- fragment: reason -->` on the line
	// before the fence, or `# fragment: reason` as a .tf file's first line.
	fragment string
}

func (b exampleBlock) where() string { return fmt.Sprintf("%s:%d", b.source, b.line) }

// padded is the block's text at the line it has in its source, so that
// Terraform's messages about a file of it give the source's line numbers.
func (b exampleBlock) padded() string { return strings.Repeat("\n", b.line-1) + b.text }

var (
	fenceOpen        = regexp.MustCompile("^```(hcl|terraform|tf)\\s*$")
	markdownFragment = regexp.MustCompile(`^<!--\s*fragment:\s*(\S.*?)\s*-->$`)
	tfFragment       = regexp.MustCompile(`^#\s*fragment:\s*(\S.*?)\s*$`)
)

// collectExampleBlocks finds every example block under root: README.md,
// CONTRIBUTING.md,
// templates/**/*.tmpl and examples/**/*.tf.
func collectExampleBlocks(root string) ([]exampleBlock, error) {
	var blocks []exampleBlock
	for _, doc := range []string{"README.md", "CONTRIBUTING.md"} {
		found, err := markdownFile(root, doc)
		if err != nil {
			return nil, err
		}
		blocks = append(blocks, found...)
	}
	var err error
	err = walkFiles(root, "templates", ".tmpl", func(rel string) error {
		found, err := markdownFile(root, rel)
		blocks = append(blocks, found...)
		return err
	})
	if err != nil {
		return nil, err
	}
	err = walkFiles(root, "examples", ".tf", func(rel string) error {
		raw, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			return err
		}
		b := exampleBlock{source: rel, line: 1, text: string(raw)}
		first, _, _ := strings.Cut(b.text, "\n")
		if m := tfFragment.FindStringSubmatch(first); m != nil {
			b.fragment = m[1]
		}
		blocks = append(blocks, b)
		return nil
	})
	return blocks, err
}

// walkFiles calls fn with the path, relative to root, of every file under
// root/dir whose name ends in ext, in lexical order.
func walkFiles(root, dir, ext string, fn func(rel string) error) error {
	return filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ext) {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		return fn(filepath.ToSlash(rel))
	})
}

// markdownFile returns the fenced HCL blocks of a markdown file or template.
func markdownFile(root, rel string) ([]exampleBlock, error) {
	raw, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		return nil, err
	}
	var blocks []exampleBlock
	var open *exampleBlock
	var body []string
	previous := "" // the last non-blank line before the current one
	scanner := bufio.NewScanner(strings.NewReader(string(raw)))
	for n := 1; scanner.Scan(); n++ {
		line := scanner.Text()
		switch {
		case open != nil && strings.TrimSpace(line) == "```":
			open.text = strings.Join(body, "\n") + "\n"
			blocks = append(blocks, *open)
			open, body = nil, nil
		case open != nil:
			body = append(body, line)
		case fenceOpen.MatchString(strings.TrimSpace(line)):
			open = &exampleBlock{source: rel, line: n + 1}
			if m := markdownFragment.FindStringSubmatch(previous); m != nil {
				open.fragment = m[1]
			}
		}
		if strings.TrimSpace(line) != "" {
			previous = strings.TrimSpace(line)
		}
	}
	if open != nil {
		return nil, fmt.Errorf("%s: the code block that starts here is never closed", open.where())
	}
	return blocks, scanner.Err()
}

// blockNames lists blocks by where they are, for the test log.
func blockNames(blocks []exampleBlock, fragments bool) []string {
	var names []string
	for _, b := range blocks {
		switch {
		case fragments && b.fragment != "":
			names = append(names, b.where()+" ("+b.fragment+")")
		case !fragments && b.fragment == "":
			names = append(names, b.where())
		}
	}
	return slices.Clip(names)
}
