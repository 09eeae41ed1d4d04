package core

import (
	"context"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// secretPatterns match what must never reach a log even by accident: the
// credentials of a presigned link of S3, Google Cloud Storage, Azure or
// CloudFront, raw or URL-encoded, and any bearer token. They are the
// client's, which masks the same secrets in its own log entries and in the
// server text of its errors.
var secretPatterns = mintlify.SecretPatterns()

// tflogLogger sends the API client's log entries, go-retryablehttp's
// included, to tflog with the context of the request that produced them (the
// model is terraform-provider-http's levelledLogger). Every entry is masked:
// the API key wherever it appears, and the patterns above. The client never
// logs bodies, headers or URL queries in the first place.
type tflogLogger struct {
	apiKey string
}

var _ mintlify.Logger = tflogLogger{}

func newTFLogLogger(apiKey string) tflogLogger { return tflogLogger{apiKey: apiKey} }

// mask configures masking on ctx for one entry.
func (l tflogLogger) mask(ctx context.Context) context.Context {
	if l.apiKey != "" {
		ctx = tflog.MaskLogStrings(ctx, l.apiKey)
	}
	return tflog.MaskLogRegexes(ctx, secretPatterns...)
}

func (l tflogLogger) Debug(ctx context.Context, msg string, fields map[string]any) {
	tflog.Debug(l.mask(ctx), msg, fields)
}

func (l tflogLogger) Info(ctx context.Context, msg string, fields map[string]any) {
	tflog.Info(l.mask(ctx), msg, fields)
}

func (l tflogLogger) Warn(ctx context.Context, msg string, fields map[string]any) {
	tflog.Warn(l.mask(ctx), msg, fields)
}

func (l tflogLogger) Error(ctx context.Context, msg string, fields map[string]any) {
	tflog.Error(l.mask(ctx), msg, fields)
}
