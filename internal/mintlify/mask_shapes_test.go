package mintlify

import (
	"strings"
	"testing"
)

// credentialShape is one way a credential appears in text: a link's query
// parameter of a store, a header, a JSON field, an encoding of "=".
type credentialShape struct {
	shape string
	text  string
	// secrets must never be shown.
	secrets []string
	// kept is what stays, to help a diagnosis.
	kept []string
	// link is true when text is a link, masked also URL-encoded inside
	// another link's query (see quotings).
	link bool
}

var credentialShapes = []credentialShape{
	{
		shape: "Alibaba OSS, V1 signature with an STS security token",
		text: "https://mintlify-exports.oss-cn-hangzhou.aliyuncs.com/se_1/bundle.tar.gz?OSSAccessKeyId=STS.NUgYrLnoC37mZZCNnAbez2n" +
			"&Expires=1795338000&Signature=rVr2L7Wz%2BR4vm5WT8EE9Q%3D&security-token=CAIS8gF1q6Ft5B2yfSjIr5bkKoOFz7RU",
		secrets: []string{"NUgYrLnoC37mZZCNnAbez2n", "rVr2L7Wz", "CAIS8gF1q6Ft5B2yfSjIr5bkKoOFz7RU"},
		kept:    []string{"Expires=1795338000", "security-token=REDACTED"},
		link:    true,
	},
	{
		shape: "Alibaba OSS, V4 signature with a security token",
		text: "https://mintlify-exports.oss-cn-hangzhou.aliyuncs.com/se_1/bundle.tar.gz?x-oss-signature-version=OSS4-HMAC-SHA256" +
			"&x-oss-credential=LTAI5tFakeAccessKey%2F20261121%2Fcn-hangzhou%2Foss%2Faliyun_v4_request&x-oss-expires=3600" +
			"&x-oss-signature=d8a7f0e3b1c24d5e9f6a7b8c9d0e1f2a&x-oss-security-token=CAISOSSV4SessionTokenBody",
		secrets: []string{"LTAI5tFakeAccessKey", "d8a7f0e3b1c24d5e9f6a", "CAISOSSV4SessionTokenBody"},
		kept:    []string{"x-oss-expires=3600", "x-oss-security-token=REDACTED"},
		link:    true,
	},
	{
		shape: "Tencent COS, with a security token",
		text: "https://mintlify-1250000000.cos.ap-guangzhou.myqcloud.com/se_1/bundle.tar.gz?q-sign-algorithm=sha1" +
			"&q-ak=AKIDFakeTencentSecretId0123&q-sign-time=1795334400%3B1795338000&q-key-time=1795334400%3B1795338000" +
			"&q-header-list=host&q-url-param-list=&q-signature=7f0c1b3e5a2d4c6e8f0a1b2c3d4e5f6a7b8c9d0e" +
			"&x-cos-security-token=COSSessionTokenBody0123",
		secrets: []string{"AKIDFakeTencentSecretId0123", "7f0c1b3e5a2d4c6e8f0a", "COSSessionTokenBody0123"},
		kept:    []string{"q-sign-algorithm=sha1", "q-ak=REDACTED"},
		link:    true,
	},
	{
		shape:   "Backblaze B2, Authorization in the query",
		text:    "https://f000.backblazeb2.com/file/mintlify-exports/se_1/bundle.tar.gz?Authorization=3_20261121090000_b2DownloadAuthToken",
		secrets: []string{"b2DownloadAuthToken"},
		kept:    []string{"?Authorization=REDACTED"},
		link:    true,
	},
	{
		shape:   "a token parameter",
		text:    "https://cdn.example.com/se_1/bundle.tar.gz?token=tk_0f1e2d3c4b5a69788796a5b4&expires=1795338000",
		secrets: []string{"tk_0f1e2d3c4b5a69788796a5b4"},
		kept:    []string{"token=REDACTED", "expires=1795338000"},
		link:    true,
	},
	{
		shape:   "Akamai, an hmac inside a token",
		text:    "edge token exp=1795338000~acl=/se_1/*~hmac=4d5e6f708192a3b4c5d6e7f8091a2b3c rejected",
		secrets: []string{"4d5e6f708192a3b4c5d6e7f8091a2b3c"},
		kept:    []string{"hmac=REDACTED", "rejected"},
	},
	{
		shape:   "Akamai, hdnts",
		text:    "https://exports.akamaized.net/se_1/bundle.tar.gz?hdnts=st%3D1795334400~exp%3D1795338000~hmac%3D9a8b7c6d5e4f30211203",
		secrets: []string{"9a8b7c6d5e4f30211203"},
		kept:    []string{"hdnts=REDACTED"},
		link:    true,
	},
	{
		shape:   "an OpenID Connect id_token",
		text:    "https://app.example.com/callback#id_token=oidc.id.token.body0123&state=s1",
		secrets: []string{"oidc.id.token.body0123"},
		kept:    []string{"id_token=REDACTED", "state=s1"},
		link:    true,
	},
	{
		shape:   "an OAuth refresh_token",
		text:    "grant_type=refresh_token&refresh_token=rt_9f8e7d6c5b4a39281706&client_id=terraform",
		secrets: []string{"rt_9f8e7d6c5b4a39281706"},
		kept:    []string{"grant_type=refresh_token", "client_id=terraform"},
	},
	{
		shape:   "Basic credentials",
		text:    "proxy answered 407 to Authorization: Basic ZXhwb3J0ZXI6aHVudGVyMg== for the download",
		secrets: []string{"ZXhwb3J0ZXI6aHVudGVyMg"},
		kept:    []string{"Authorization: Basic REDACTED for the download"},
	},
	{
		shape:   "a user name and password in a link",
		text:    "https://exporter:hunter2-Secret@mirror.example.com/se_1/bundle.tar.gz",
		secrets: []string{"hunter2-Secret"},
		kept:    []string{"https://exporter:REDACTED@mirror.example.com/se_1/bundle.tar.gz"},
		link:    true,
	},
	{
		shape:   "a JWT without Bearer",
		text:    "session eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJleHBvcnRlciJ9.c2lnbmF0dXJlLWJ5dGVz expired",
		secrets: []string{"eyJzdWIiOiJleHBvcnRlciJ9", "c2lnbmF0dXJlLWJ5dGVz"},
		kept:    []string{"session REDACTED expired"},
	},
	{
		shape:   "JSON fields",
		text:    `{"access_token": "at_0a1b2c3d4e5f", "X-Amz-Signature":"9f1a6e0c3b2d", "token" : "tk_in_json", "expires_in": 3600}`,
		secrets: []string{"at_0a1b2c3d4e5f", "9f1a6e0c3b2d", "tk_in_json"},
		kept:    []string{`"access_token": "REDACTED"`, `"expires_in": 3600`},
	},
	{
		shape:   "JSON fields inside a JSON string",
		text:    `{"error":"upstream said {\"refresh_token\":\"rt_escaped_0123\"}"}`,
		secrets: []string{"rt_escaped_0123"},
		kept:    []string{`\"refresh_token\":\"REDACTED\"`},
	},
	{
		shape:   "= as an HTML numeric reference",
		text:    `<a href="https://cdn.example.com/b.tar.gz?X-Amz-Expires&#61;3600&amp;X-Amz-Signature&#61;c0ffee0123456789&amp;a&#x3D;1">`,
		secrets: []string{"c0ffee0123456789"},
		kept:    []string{"X-Amz-Expires&#61;3600", "X-Amz-Signature&#61;REDACTED&amp;"},
	},
	{
		shape:   "= as an HTML named reference",
		text:    `<p>sig&equals;s1gnatureBytes0123&amp;sv&equals;2022-11-02</p>`,
		secrets: []string{"s1gnatureBytes0123"},
		kept:    []string{"sig&equals;REDACTED&amp;sv&equals;2022-11-02"},
	},
	{
		shape:   `= as \u003d`,
		text:    `{"detail":"https://x.example.com/b?Signature\u003dabcDEF0123456\u0026Expires\u003d1795338000"}`,
		secrets: []string{"abcDEF0123456"},
		kept:    []string{`Signature\u003dREDACTED\u0026Expires\u003d1795338000`},
	},
	{
		shape:   "an admin key of another organization",
		text:    "the key mint_0tHeR0rgAdminKeyBody42 belongs to another organization",
		secrets: []string{"0tHeR0rgAdminKeyBody42"},
		kept:    []string{"the key mint_REDACTED belongs to another organization"},
	},
}

// TestEveryCredentialShapeIsMasked: each shape of credential that a
// server's text, a log entry or an error may quote is masked (links raw
// and URL-encoded, in every quoting), both by the client's masking and by
// the patterns it gives the provider's logger; what is not secret stays.
func TestEveryCredentialShapeIsMasked(t *testing.T) {
	t.Parallel()
	for _, c := range credentialShapes {
		t.Run(c.shape, func(t *testing.T) {
			t.Parallel()
			l := signedLink{store: c.shape, link: c.text, secrets: c.secrets, kept: c.kept}
			checkMasked(t, l, "raw", maskSecrets(c.text, nil))
			byPatterns := c.text
			for _, re := range SecretPatterns() {
				byPatterns = re.ReplaceAllString(byPatterns, "***")
			}
			for _, secret := range c.secrets {
				if strings.Contains(byPatterns, secret) {
					t.Errorf("SecretPatterns leave %q in %q", secret, byPatterns)
				}
			}
			if !c.link {
				return
			}
			for _, q := range quotings[1:] {
				checkMasked(t, l, q.name, maskSecrets(q.quote(c.text), nil))
			}
		})
	}
}
