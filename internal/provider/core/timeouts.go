package core

import (
	"context"
	"fmt"
	"maps"
	"time"

	datasourcetimeouts "github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	ephemeraltimeouts "github.com/hashicorp/terraform-plugin-framework-timeouts/ephemeral/timeouts"
	resourcetimeouts "github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	datasourceschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	ephemeralschema "github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	resourceschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// DefaultReadTimeout bounds one refresh of a resource, and one read of a data
// source or ephemeral resource, retries included, when `timeouts.read` (or
// `timeouts.open`) is not set. Each family sets the timeout of its own waits
// beside them.
const DefaultReadTimeout = 2 * time.Minute

// The `timeouts` attribute comes from terraform-plugin-framework-timeouts,
// which checks only that each value parses, so "-5m", "1ns" or "87600h"
// passed the plan. These functions keep the library's type and value
// handling and change what users see: every value must be a duration from
// minOperationTimeout to maxOperationTimeout (an error at plan naming
// `timeouts.create`), and the descriptions are markdown, including one for
// `timeouts` itself. The framework's resource, data source and ephemeral
// schema packages each have their own attribute types, so there is one
// function for each.

var timeoutsDescription = fmt.Sprintf("Operation timeouts, as durations from `%s` to `%s`.", FormatDuration(minOperationTimeout), FormatDuration(maxOperationTimeout))

// durationsOnly are the validators of every timeouts value.
var durationsOnly = []validator.String{Durations.Operation}

// Timeouts builds the `timeouts` attribute of each kind of schema.
var Timeouts timeoutAttributes

// timeoutAttributes builds the `timeouts` attribute of a resource, a data
// source or an ephemeral resource.
type timeoutAttributes struct{}

// Resource is resourcetimeouts.Attributes, bounded and in markdown.
func (timeoutAttributes) Resource(ctx context.Context, opts resourcetimeouts.Opts) resourceschema.Attribute {
	nested := libraryAttribute[resourceschema.SingleNestedAttribute](resourcetimeouts.Attributes(ctx, opts))
	nested.MarkdownDescription = timeoutsDescription
	nested.Attributes = maps.Clone(nested.Attributes)
	for name, a := range nested.Attributes {
		value := libraryAttribute[resourceschema.StringAttribute](a)
		value.MarkdownDescription, value.Description, value.Validators = value.Description, "", durationsOnly
		nested.Attributes[name] = value
	}
	return nested
}

// DataSource is datasourcetimeouts.AttributesWithOpts, bounded and in
// markdown.
func (timeoutAttributes) DataSource(ctx context.Context, opts datasourcetimeouts.Opts) datasourceschema.Attribute {
	nested := libraryAttribute[datasourceschema.SingleNestedAttribute](datasourcetimeouts.AttributesWithOpts(ctx, opts))
	nested.MarkdownDescription = timeoutsDescription
	nested.Attributes = maps.Clone(nested.Attributes)
	for name, a := range nested.Attributes {
		value := libraryAttribute[datasourceschema.StringAttribute](a)
		value.MarkdownDescription, value.Description, value.Validators = value.Description, "", durationsOnly
		nested.Attributes[name] = value
	}
	return nested
}

// Ephemeral is ephemeraltimeouts.AttributesWithOpts, bounded and in
// markdown.
func (timeoutAttributes) Ephemeral(ctx context.Context, opts ephemeraltimeouts.Opts) ephemeralschema.Attribute {
	nested := libraryAttribute[ephemeralschema.SingleNestedAttribute](ephemeraltimeouts.AttributesWithOpts(ctx, opts))
	nested.MarkdownDescription = timeoutsDescription
	nested.Attributes = maps.Clone(nested.Attributes)
	for name, a := range nested.Attributes {
		value := libraryAttribute[ephemeralschema.StringAttribute](a)
		value.MarkdownDescription, value.Description, value.Validators = value.Description, "", durationsOnly
		nested.Attributes[name] = value
	}
	return nested
}

// libraryAttribute is a, an attribute of the timeouts library, as the
// concrete type the library builds it with: a SingleNestedAttribute of
// StringAttributes. Any other type is a change of the library, which every
// schema test would then report as this panic.
func libraryAttribute[T any](a any) T {
	t, ok := a.(T)
	if !ok {
		panic(fmt.Sprintf("terraform-plugin-framework-timeouts built a %T where the provider expects a %T", a, t))
	}
	return t
}
