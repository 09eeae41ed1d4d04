package mintlify

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The client masks secrets it cannot keep out of text altogether: a bundle
// link's query (its signature) appears in go-retryablehttp's log entries
// and in the errors of net/http; and text that a server wrote (an error
// message, a job's failure reason) may quote a signed link or a token.

// redacted replaces a secret wherever it appears.
const redacted = "REDACTED"

// secretPatterns match secrets that may appear in any text: the credentials
// of a presigned S3 link, and any bearer token. The first group (the name)
// is kept, the secret masked.
var secretPatterns = []*regexp.Regexp{
	regexp.MustCompile(`(?i)(X-Amz-(?:Signature|Credential|Security-Token)=)[^&\s"']+`),
	regexp.MustCompile(`(?i)(Bearer\s+)[^\s"']+`),
}

// SecretPatterns returns the patterns of secrets that may appear in any
// text, for a logger that masks them in every entry (the provider's tflog
// adapter), so that logs and errors mask the same secrets.
func SecretPatterns() []*regexp.Regexp { return slices.Clone(secretPatterns) }

func maskString(s string, secrets []string) string {
	for _, secret := range secrets {
		if secret != "" {
			s = strings.ReplaceAll(s, secret, redacted)
		}
	}
	return s
}

// maskPatterns masks whatever secretPatterns match.
func maskPatterns(s string) string {
	for _, re := range secretPatterns {
		s = re.ReplaceAllString(s, "${1}"+redacted)
	}
	return s
}

// maxServerText is how many characters of a server's own words an error
// keeps.
const maxServerText = 300

// serverText is text a server wrote (an error message, a storage host's
// error document, a job's failure reason or status) made fit for an error
// that a person reads: valid UTF-8 on one line, without control or
// formatting characters (a terminal escape, a bidirectional override),
// secrets masked (the client's own, such as the API key, and any link
// signature or bearer token), and cut to maxServerText characters.
func serverText(s string, secrets []string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case unicode.IsSpace(r):
			return ' '
		case unicode.IsControl(r) || unicode.In(r, unicode.Cf):
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
	s = maskPatterns(maskString(strings.Join(strings.Fields(s), " "), secrets))
	if n := utf8.RuneCountInString(s); n > maxServerText {
		kept := string([]rune(s)[:maxServerText])
		// At the end of a word, unless that drops much.
		if i := strings.LastIndexByte(kept, ' '); i >= 0 && utf8.RuneCountInString(kept[i:]) < 30 {
			kept = kept[:i]
		}
		s = kept + fmt.Sprintf("… (cut from %d characters)", n)
	}
	return s
}

// maskError returns err, or an error with the same text masked when the
// text holds a secret. The masked error keeps the chain for errors.Is and
// errors.As.
func maskError(err error, secrets []string) error {
	if text := err.Error(); maskString(text, secrets) != text {
		return &maskedError{text: maskString(text, secrets), err: err}
	}
	return err
}

type maskedError struct {
	text string
	err  error
}

func (e *maskedError) Error() string { return e.text }
func (e *maskedError) Unwrap() error { return e.err }
