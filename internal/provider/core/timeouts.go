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

// DefaultExportTimeout bounds the wait for a static export (a bundle's
// create and update, an archive's create) when `timeouts` is not set.
const DefaultExportTimeout = 30 * time.Minute

// DefaultReadTimeout bounds one refresh of a resource, and one read of a data
// source or ephemeral resource, retries included, when `timeouts.read` (or
// `timeouts.open`) is not set.
const DefaultReadTimeout = 2 * time.Minute

// DefaultAgentWaitTimeout bounds a wait for an agent job when no timeout is
// set.
const DefaultAgentWaitTimeout = 30 * time.Minute

// DefaultDeploymentWaitTimeout bounds a wait for a deployment (or a
// preview) when no timeout is set. A Mintlify deployment takes minutes;
// half an hour is far beyond a normal build, yet short enough that a stuck
// one fails the CI job that waits for it instead of holding it for hours.
const DefaultDeploymentWaitTimeout = 30 * time.Minute

// DefaultTriggerTimeout bounds a trigger call (an automation run), its turn
// within the API's rate limits and its retries included, when no timeout is
// set.
const DefaultTriggerTimeout = 5 * time.Minute

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
var durationsOnly = []validator.String{OperationTimeout}

// ResourceTimeouts is resourcetimeouts.Attributes, bounded and in markdown.
func ResourceTimeouts(ctx context.Context, opts resourcetimeouts.Opts) resourceschema.Attribute {
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

// DataSourceTimeouts is datasourcetimeouts.AttributesWithOpts, bounded and in
// markdown.
func DataSourceTimeouts(ctx context.Context, opts datasourcetimeouts.Opts) datasourceschema.Attribute {
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

// EphemeralTimeouts is ephemeraltimeouts.AttributesWithOpts, bounded and in
// markdown.
func EphemeralTimeouts(ctx context.Context, opts ephemeraltimeouts.Opts) ephemeralschema.Attribute {
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
