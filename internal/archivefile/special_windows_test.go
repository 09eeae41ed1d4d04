package archivefile

import (
	"os"
	"testing"
)

// specialMakers make at a path what is not a regular file.
func specialMakers() map[string]func(t *testing.T, p string) {
	return map[string]func(t *testing.T, p string){
		"directory": func(t *testing.T, p string) {
			t.Helper()
			if err := os.Mkdir(p, 0o755); err != nil {
				t.Fatal(err)
			}
		},
	}
}
