package docstest

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// assumedLifetime is a sentence that gives the bundle link a lifetime of
// its own: "24-hour links", "links live 24 hours", "the link expires after
// 7 days". The docs speak of the lifetime `expires_at` shows ("if
// expires_at is 24 hours after the apply", "links that live 24 hours, as
// expires_at shows them").
var assumedLifetime = regexp.MustCompile(`(?i)\b\d+-(?:minute|hour|day|week) links?\b|` +
	`\blinks? (?:live|lives|last|lasts|are valid|is valid|expire|expires|stay valid|stays valid)(?: for| after)? ` +
	`(?:\d+|an?|one|seven) (?:minutes?|hours?|days?|weeks?)\b`)

// TestNoLinkLifetimeIsAssumed: Mintlify does not document how long a
// bundle link lives, so no page, template or example may state one.
func TestNoLinkLifetimeIsAssumed(t *testing.T) {
	t.Parallel()
	files := []string{"README.md"}
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
	for _, rel := range files {
		text := strings.NewReplacer("#", " ", "//", " ").Replace(readRepoFile(t, rel))
		for _, m := range assumedLifetime.FindAllString(oneLine(text), -1) {
			t.Errorf("%s: %q assumes a link lifetime; give schedules in terms of the lifetime expires_at shows", rel, m)
		}
	}
}
