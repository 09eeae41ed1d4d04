package mintlify

import (
	"fmt"
	"net"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Hosts taken from links and redirects reach errors, logs and diagnostics.
// A host is the server's to choose: a right-to-left override, a C1 control
// or a letter that looks like another can make a reader see a host other
// than the one the client talked to. So a host is always printed escaped
// (ShowHost), and a bundle link must name its host in ASCII (IDNA A-labels,
// xn--...), as every storage host does.

// maxShownHost is how many characters of a host ShowHost prints: a DNS name
// is at most 253, a port and an IPv6 literal's brackets add a few.
const maxShownHost = 270

// ShowHost returns host (a host name or address, with or without a port)
// fit to print in an error, a log entry or a diagnostic: as it is when it
// is printable ASCII, otherwise with every other character, and every
// invalid byte, escaped as Go escapes them (\u202e, \x85) and a backslash
// doubled; cut, saying so, past maxShownHost characters.
func ShowHost(host string) string {
	shown, n := cut(host, maxShownHost)
	quoted := strconv.QuoteToASCII(shown)
	shown = quoted[1 : len(quoted)-1]
	if n > maxShownHost {
		shown += cutNote(n)
	}
	return shown
}

// cutNote follows text cut from n characters.
func cutNote(n int) string { return fmt.Sprintf("… (cut from %d characters)", n) }

// cut returns s cut to limit characters (invalid bytes count as one), and
// how many characters s has.
func cut(s string, limit int) (string, int) {
	n := utf8.RuneCountInString(s)
	if n <= limit {
		return s, n
	}
	end := 0
	for range limit {
		_, size := utf8.DecodeRuneInString(s[end:])
		end += size
	}
	return s[:end], n
}

// escapeUnprintable returns s with every character that is not printable
// (a control character, a format character such as a bidirectional
// override, an invalid byte) escaped as Go escapes them, for text that may
// quote a host: the errors of net/http, whose DNS and TLS errors name the
// host a redirect pointed at. Other text, spaces included, stays.
func escapeUnprintable(s string) string {
	if utf8.ValidString(s) && !strings.ContainsFunc(s, isUnprintable) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case isUnprintable(r):
			quoted := strconv.QuoteRuneToASCII(r)
			b.WriteString(quoted[1 : len(quoted)-1])
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

func isUnprintable(r rune) bool { return !unicode.IsPrint(r) }

// isASCIIHost reports whether hostname (without a port) is an IP address or
// a DNS name of ASCII letters, digits, hyphens and underscores, its
// internationalized labels written as IDNA A-labels (xn--...).
func isASCIIHost(hostname string) bool {
	if net.ParseIP(hostname) != nil {
		return true
	}
	return hostname != "" && !strings.ContainsFunc(hostname, func(r rune) bool {
		return (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (r < '0' || r > '9') && r != '-' && r != '.' && r != '_'
	})
}
