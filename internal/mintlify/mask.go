package mintlify

import "strings"

// The client masks secrets it cannot keep out of text altogether: a bundle
// link's query (its signature) appears in go-retryablehttp's log entries
// and in the errors of net/http.

// redacted replaces a secret wherever it appears.
const redacted = "REDACTED"

func maskString(s string, secrets []string) string {
	for _, secret := range secrets {
		if secret != "" {
			s = strings.ReplaceAll(s, secret, redacted)
		}
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
