package docstest

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTroubleshootingNamesRealMessages: every message the troubleshooting
// guide lists (its tables' first column, several separated by commas) is
// the title of a diagnostic the provider gives, as a string literal of its
// code, so that the guide cannot list a message nobody sees.
func TestTroubleshootingNamesRealMessages(t *testing.T) {
	t.Parallel()
	page, err := os.ReadFile(filepath.Join("..", "..", "templates", "guides", "troubleshooting.md.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	code := providerSource(t)
	listed := 0
	for _, line := range strings.Split(string(page), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 || strings.TrimSpace(cells[1]) == "Message" || strings.HasPrefix(strings.TrimSpace(cells[1]), "---") {
			continue
		}
		for _, msg := range strings.Split(strings.TrimSuffix(strings.TrimSpace(cells[1]), " (warning)"), ", ") {
			listed++
			if !strings.Contains(code, `"`+msg+`"`) {
				t.Errorf("the troubleshooting guide lists %q, which is no diagnostic of the provider", msg)
			}
		}
	}
	if listed < 30 {
		t.Errorf("the troubleshooting guide lists %d messages: its tables are no longer read", listed)
	}
}

// providerSource is the provider's Go code, tests left out.
func providerSource(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(filepath.Join("..", "provider"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return err
		}
		raw, err := os.ReadFile(p)
		b.Write(raw)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
