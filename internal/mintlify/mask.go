package mintlify

import (
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
// maskSecrets is the one masking both go through.

// redacted replaces a secret wherever it appears.
const redacted = "REDACTED"

// signedQueryKeys are the query parameters (and JSON fields) that carry
// the credentials of a presigned link at the major object stores and CDNs,
// or a token, compared ignoring case. Their values are masked wherever they
// appear, raw or URL-encoded; the other parameters (an expiry, a
// permission, a version) stay, to help a diagnosis.
var signedQueryKeys = []string{
	// AWS S3: query-string authentication version 4, and the legacy
	// version 2 (AWSAccessKeyId, Signature).
	"X-Amz-Signature", "X-Amz-Credential", "X-Amz-Security-Token", "AWSAccessKeyId",
	// Google Cloud Storage: V4 signing, and V2 (GoogleAccessId, Signature).
	"X-Goog-Signature", "X-Goog-Credential", "GoogleAccessId",
	// Azure shared access signatures: the signature, and the object and
	// tenant of a user delegation key.
	"sig", "skoid", "sktid",
	// CloudFront signed URLs: Signature, a custom Policy, the key pair.
	"Signature", "Policy", "Key-Pair-Id",
	// Alibaba OSS: V1 (OSSAccessKeyId, Signature, an STS security-token)
	// and V4 signing.
	"OSSAccessKeyId", "security-token", "x-oss-credential", "x-oss-signature", "x-oss-security-token",
	// Tencent COS: the SecretId, the signature, an STS token.
	"q-ak", "q-signature", "x-cos-security-token",
	// Backblaze B2: a download authorization token in the query.
	"Authorization",
	// Akamai token authentication: the whole token (hdnts, __token__) and
	// its hmac.
	"hdnts", "__token__", "hmac",
	// OAuth and OpenID Connect tokens, and any other token parameter.
	"access_token", "id_token", "refresh_token", "token",
}

// The parts of secretPatterns. A secret is masked raw (name=value) and
// URL-encoded once or more, as when a server quotes a whole link inside
// another link's query (name%3Dvalue, name%253Dvalue): a value ends at an
// ampersand, raw or encoded (%26, %2526), at white space or a quote, or at
// a character that no URL-encoded value holds.
const (
	// equals is =, raw, URL-encoded once or more, as an HTML character
	// reference (&#61;, &#x3D;, &equals;) or a JSON escape (\u003d).
	equals = `(?:=|%(?:25)*3[Dd]|&#0*61;|&#[Xx]0*3[Dd];|&equals;|\\u003[Dd])`
	// encodedByte is any URL escape but an encoded & (%26, %2526, ...).
	encodedByte = `%(?:25)*(?:[013-9A-Fa-f][0-9A-Fa-f]|2[0-47-9A-Fa-f])`
	// secretValue is a value up to its end.
	secretValue = `(?:[^%&\\\s"'<>,;()\[\]{}|` + "`" + `]|` + encodedByte + `)+`
	// jsonField is what follows a JSON field's name up to its string
	// value, in JSON or in JSON quoted inside a JSON string (\").
	jsonField = `\\?"\s*:\s*\\?"`
	// jsonValue is a JSON string's content up to its closing quote, escapes
	// (\/, \u0026) included.
	jsonValue = `(?:[^"\\]|\\[^"\\])+`
	// uriSlash, uriColon and uriAt are /, : and @, raw or URL-encoded.
	uriSlash = `(?:/|%(?:25)*2[Ff])`
	uriColon = `(?::|%(?:25)*3[Aa])`
	uriAt    = `(?:@|%(?:25)*40)`
	// userChar is a character of a link's user name: not / : @, raw or
	// encoded; passwordChar one of its password, which may hold a colon.
	userChar     = `(?:[^/:@?#%\\\s"'<>]|%(?:25)*(?:[015-9A-Fa-f][0-9A-Fa-f]|2[0-9A-Ea-e]|3[0-9B-Fb-f]|4[1-9A-Fa-f]))`
	passwordChar = `(?:[^/@?#%\\\s"'<>]|%(?:25)*(?:[013-9A-Fa-f][0-9A-Fa-f]|2[0-9A-Ea-e]|4[1-9A-Fa-f]))`
)

// secretPatterns match secrets that may appear in any text, raw or
// URL-encoded: the credentials of a presigned link (signedQueryKeys), as
// query parameters or JSON fields; bearer tokens and Basic credentials; a
// link's password; a JWT; a Mintlify admin key of any organization. The
// first group (a name) and the second (what follows the secret, if any)
// are kept, the secret masked. A name is matched inside a longer one too
// (sig= in xsig=): masking a little too much is harmless, and a match never
// takes the ? or & before the name, which tflog's masking (of the whole
// match) would eat.
var secretPatterns = []*regexp.Regexp{
	// A space after Bearer or Basic: raw, form-encoded (+), URL-encoded
	// (%20, %2B). Before the JSON fields, whose values may hold one.
	regexp.MustCompile(`(?i)((?:Bearer|Basic)(?:\s+|\+|%(?:25)*2[0Bb]))` + secretValue),
	regexp.MustCompile(`(?i)((?:` + quoteAll(signedQueryKeys) + `)` + equals + `)` + secretValue),
	regexp.MustCompile(`(?i)((?:` + quoteAll(signedQueryKeys) + `)` + jsonField + `)` + jsonValue),
	regexp.MustCompile(`(` + uriSlash + `{2}` + userChar + `*` + uriColon + `)` + passwordChar + `+(` + uriAt + `)`),
	// A JSON Web Token: a header and a payload, each base64url JSON.
	regexp.MustCompile(`eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*`),
	regexp.MustCompile(`\b(mint_)[A-Za-z0-9_-]{8,}`),
}

func quoteAll(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = regexp.QuoteMeta(n)
	}
	return strings.Join(quoted, "|")
}

// isSignedQueryKey reports whether a link's query parameter key carries a
// credential.
func isSignedQueryKey(key string) bool {
	return slices.ContainsFunc(signedQueryKeys, func(k string) bool { return strings.EqualFold(k, key) })
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

// maskSecrets masks the client's own secrets (the API key, a link's query)
// and whatever secretPatterns match: the one masking that log entries
// (maskingLogger) and the server text of errors (serverText) go through.
func maskSecrets(s string, secrets []string) string {
	s = maskString(s, secrets)
	for _, re := range secretPatterns {
		s = re.ReplaceAllString(s, "${1}"+redacted+"${2}")
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
	s = maskSecrets(strings.Join(strings.Fields(s), " "), secrets)
	if n := utf8.RuneCountInString(s); n > maxServerText {
		kept := string([]rune(s)[:maxServerText])
		// At the end of a word, unless that drops much.
		if i := strings.LastIndexByte(kept, ' '); i >= 0 && utf8.RuneCountInString(kept[i:]) < 30 {
			kept = kept[:i]
		}
		s = kept + cutNote(n)
	}
	return s
}

// maskError returns err, or an error with the same text masked when the
// text holds a secret. The masked error keeps the chain for errors.Is and
// errors.As.
func maskError(err error, secrets []string) error {
	if text := err.Error(); maskSecrets(text, secrets) != text {
		return &maskedError{text: maskSecrets(text, secrets), err: err}
	}
	return err
}

// maskedError is an error whose text was rewritten (masked, or escaped by
// unwrapURLError), with the chain of the original.
type maskedError struct {
	text string
	err  error
}

func (e *maskedError) Error() string { return e.text }
func (e *maskedError) Unwrap() error { return e.err }
