package staticexport

import (
	"bytes"
	"encoding/json"
	"strings"
)

// helmValues renders the Enterprise chart's values for a bundle link. Strings
// are JSON-quoted, which YAML reads as double-quoted scalars, so no link or
// label can break the document.
func helmValues(bundleURL, version string) string {
	var b strings.Builder
	b.WriteString("staticExport:\n  enabled: true\n  bundleUrl: ")
	b.WriteString(yamlQuote(bundleURL))
	b.WriteString("\n")
	if version != "" {
		b.WriteString("  version: ")
		b.WriteString(yamlQuote(version))
		b.WriteString("\n")
	}
	return b.String()
}

func yamlQuote(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // keep the link's & readable
	_ = enc.Encode(s)        // encoding a string cannot fail
	return strings.TrimSuffix(buf.String(), "\n")
}
