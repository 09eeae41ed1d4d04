package docstest

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The budget of what users read: the README and docs/ together, outside
// fenced code blocks, front matter included.
const (
	docsWordBudget  = 14000
	maxSentence     = 40
	readmeMaxLines  = 150
	sentenceExcerpt = 8
)

// budgetFiles are README.md, docs/*.md and docs/*/*.md, as repository
// paths.
func budgetFiles(t *testing.T) []string {
	t.Helper()
	root := filepath.Join("..", "..")
	files := []string{"README.md"}
	for _, pattern := range []string{"docs/*.md", "docs/*/*.md"} {
		matches, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(pattern)))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range matches {
			rel, err := filepath.Rel(root, m)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, filepath.ToSlash(rel))
		}
	}
	if len(files) < 10 {
		t.Fatalf("found %d pages under docs/: the budget no longer reads them", len(files)-1)
	}
	return files
}

// proseLines is text without its fenced code blocks: a line whose first
// non-blank characters are ``` opens or closes a block, and is dropped with
// everything between.
func proseLines(text string) []string {
	var out []string
	fenced := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			out = append(out, line)
		}
	}
	return out
}

// proseWords counts as `wc -w` does on the prose: runs of non-space.
func proseWords(text string) int {
	return len(strings.Fields(strings.Join(proseLines(text), "\n")))
}

var (
	listItem = regexp.MustCompile(`^(?:[-*+]|\d+[.)])\s`)
	// abbreviation is a dotted abbreviation that ends no sentence.
	abbreviation = regexp.MustCompile(`(?i)\b(e\.g|i\.e|etc|vs|cf)\.`)
	// sentenceEnd is ". ", "? " or "! " (after an optional closing quote,
	// parenthesis, backtick or emphasis) before a capital or a digit (after
	// an optional opening mark) or a code span: the next sentence starts
	// there.
	sentenceEnd = regexp.MustCompile("[.?!][\"')\\]`*_]*\\s+(?:`|[\"'(\\[*_]*[A-Z0-9])")
)

// proseUnits are the units that sentences are cut from: a paragraph (its
// lines joined), and on their own each heading, each list item (with its
// continuation lines) and each table row (its cell boundaries are no
// sentence ends: a row is read as one run of text).
func proseUnits(lines []string) []string {
	var units []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			units = append(units, strings.Join(cur, " "))
			cur = nil
		}
	}
	for _, line := range lines {
		s := strings.TrimSpace(line)
		switch {
		case s == "":
			flush()
		case strings.HasPrefix(s, "#"), listItem.MatchString(s), s == "---":
			flush()
			cur = []string{s}
		case strings.HasPrefix(s, "|"):
			flush()
			if strings.Trim(s, "|-: ") != "" { // not the row under the header
				units = append(units, strings.ReplaceAll(s, "|", " "))
			}
		default:
			cur = append(cur, s)
		}
	}
	flush()
	return units
}

// sentences splits a unit after ". ", "? " or "! " followed by a capital
// or a digit (after an optional quote, parenthesis or emphasis) or by a
// code span; "e.g.",
// "i.e." and the like end none.
func sentences(unit string) []string {
	// Hide the abbreviations' dots, then split where a sentence ends.
	text := abbreviation.ReplaceAllStringFunc(unit, func(m string) string {
		return strings.ReplaceAll(m, ".", "\x00")
	})
	var out []string
	for {
		loc := sentenceEnd.FindStringIndex(text)
		if loc == nil {
			break
		}
		// The sentence ends after the punctuation and closing marks, before
		// the space.
		end := loc[0] + strings.IndexFunc(text[loc[0]:], func(r rune) bool { return r == ' ' || r == '\t' })
		out = append(out, text[:end])
		text = strings.TrimLeft(text[end:], " \t")
	}
	out = append(out, text)
	for i := range out {
		out[i] = strings.ReplaceAll(out[i], "\x00", ".")
	}
	return out
}

// longSentences are the sentences of text over maxSentence words, each as
// its word count and its first words.
func longSentences(text string) []string {
	var long []string
	for _, unit := range proseUnits(proseLines(text)) {
		for _, s := range sentences(unit) {
			words := strings.Fields(s)
			if len(words) > maxSentence {
				long = append(long, fmt.Sprintf("%d words: %q", len(words), strings.Join(words[:sentenceExcerpt], " ")+" …"))
			}
		}
	}
	return long
}

// TestDocsWordBudget: the README and docs/ hold at most 14,000 words
// outside fenced code blocks (front matter included), and no sentence of
// that text is over 40 words.
func TestDocsWordBudget(t *testing.T) {
	t.Parallel()
	total := 0
	var counts []string
	for _, rel := range budgetFiles(t) {
		text := readRepoFile(t, rel)
		n := proseWords(text)
		total += n
		counts = append(counts, fmt.Sprintf("%6d %s", n, rel))
		for _, s := range longSentences(text) {
			t.Errorf("%s: a sentence of %s: split it (edit its template or schema description, then make docs)", rel, s)
		}
	}
	if total > docsWordBudget {
		slices.Sort(counts)
		t.Errorf("README.md and docs/ hold %d words outside code blocks, over the budget of %d by %d:\n%s",
			total, docsWordBudget, total-docsWordBudget, strings.Join(counts, "\n"))
	}
}

// TestReadmeIsShort: the README is a product page of at most 150 lines;
// the details are in docs/.
func TestReadmeIsShort(t *testing.T) {
	t.Parallel()
	readme := strings.TrimRight(readRepoFile(t, "README.md"), "\n")
	if n := len(strings.Split(readme, "\n")); n > readmeMaxLines {
		t.Errorf("README.md has %d lines, over %d: move the details to docs/ (templates/)", n, readmeMaxLines)
	}
}

// TestSentenceSplitting pins how the budget reads sentences.
func TestSentenceSplitting(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		unit string
		want int
	}{
		{"One. Two? Three! Four", 4},
		{"Use a variable, e.g. Terraform's own, i.e. one that is set. Then apply.", 2},
		{"Version 1.14. 2 runs follow.", 2},
		{"It ends (see below). `terraform apply` starts it.", 2},
		{"Set `a.b` and the file docs.example.com here. then it goes on", 1},
	} {
		if got := sentences(c.unit); len(got) != c.want {
			t.Errorf("sentences(%q) = %q, want %d", c.unit, got, c.want)
		}
	}
	table := []string{"| `A` | a cell. | Another cell, with no end |", "|---|---|---|", "# Heading", "- item one", "  continued. Second"}
	units := proseUnits(table)
	if len(units) != 3 {
		t.Errorf("proseUnits(%q) = %q, want the row, the heading and the item", table, units)
	}
	long := "| " + strings.Repeat("word | ", 41) + "\n"
	if got := longSentences(long); len(got) != 1 {
		t.Errorf("a table row of 41 words without a sentence end reads as %d long sentences, want 1", len(got))
	}
	fenced := "Prose here.\n```hcl\n" + strings.Repeat("code ", 50) + "\n```\nMore prose.\n"
	if n := proseWords(fenced); n != 4 {
		t.Errorf("proseWords counts %d words, want 4 (the fenced block left out)", n)
	}
}
