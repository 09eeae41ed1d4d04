package testtier

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeTest(t *testing.T, body string) string {
	t.Helper()
	dir := t.TempDir()
	src := "package p\n\nimport \"testing\"\n\n" + body
	if err := os.WriteFile(filepath.Join(dir, "p_test.go"), []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestScanReadsTheDeclarations(t *testing.T) {
	t.Parallel()
	dir := writeTest(t, `
func TestA(t *testing.T) {
	t.Parallel()
	providertest.CLIContract(t, "resource.mintlify_deployment", "data.mintlify_deployment")
}

func TestB(t *testing.T) { t.Parallel() }

func TestC(t *testing.T) { CLIContract(t) }
`)
	tests, err := Scan(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(tests) != 2 || tests[0].Name != "TestA" || strings.Join(tests[0].Types, " ") != "resource.mintlify_deployment data.mintlify_deployment" ||
		tests[1].Name != "TestC" || len(tests[1].Types) != 0 || tests[0].File != "p_test.go" {
		t.Errorf("Scan = %+v", tests)
	}
	if got, want := RunPattern(tests), "^(TestA|TestC)$"; got != want {
		t.Errorf("RunPattern = %q, want %q", got, want)
	}
}

func TestScanRefusesWhatItCannotRead(t *testing.T) {
	t.Parallel()
	for name, body := range map[string]string{
		"not a literal": `func TestA(t *testing.T) { providertest.CLIContract(t, typ) }`,
		"nested":        `func TestA(t *testing.T) { t.Run("x", func(t *testing.T) { providertest.CLIContract(t) }) }`,
		"twice":         `func TestA(t *testing.T) { providertest.CLIContract(t); providertest.CLIContract(t) }`,
	} {
		if _, err := Scan(writeTest(t, body)); err == nil {
			t.Errorf("%s: Scan did not refuse %s", name, body)
		}
	}
}
