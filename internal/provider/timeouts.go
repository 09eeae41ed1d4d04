package provider

import (
	"context"
	"fmt"

	datasourcetimeouts "github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	ephemeraltimeouts "github.com/hashicorp/terraform-plugin-framework-timeouts/ephemeral/timeouts"
	resourcetimeouts "github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	datasourceschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	ephemeralschema "github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	resourceschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// The `timeouts` attribute comes from terraform-plugin-framework-timeouts,
// which checks only that each value parses, so "-5m", "1ns" or "87600h"
// passed the plan. These wrappers keep the library's type and value
// handling and change what users see: every value must be a duration from
// minOperationTimeout to maxOperationTimeout (an error at plan naming
// `timeouts.create`), and the descriptions are markdown, including one for
// `timeouts` itself.

var timeoutsDescription = fmt.Sprintf("How long operations may take before Terraform gives up, as durations "+
	"such as `45m`, from `%s` to `%s`.", formatDuration(minOperationTimeout), formatDuration(maxOperationTimeout))

// durationsOnly are the validators of every timeouts value.
var durationsOnly = []validator.String{operationTimeout}

// resourceTimeouts is resourcetimeouts.Attributes with positive durations and
// markdown descriptions.
// A library whose attributes took another shape would be returned as it is
// (the acceptance tests of "-5m" would then fail).
func resourceTimeouts(ctx context.Context, opts resourcetimeouts.Opts) resourceschema.Attribute {
	lib := resourcetimeouts.Attributes(ctx, opts)
	attr, ok := lib.(resourceschema.SingleNestedAttribute)
	if !ok {
		return lib
	}
	attr.MarkdownDescription = timeoutsDescription
	for name, a := range attr.Attributes {
		if s, ok := a.(resourceschema.StringAttribute); ok {
			s.MarkdownDescription, s.Description = s.Description, ""
			s.Validators = durationsOnly
			attr.Attributes[name] = s
		}
	}
	return attr
}

// dataSourceTimeouts is datasourcetimeouts.AttributesWithOpts with positive
// durations and markdown descriptions.
func dataSourceTimeouts(ctx context.Context, opts datasourcetimeouts.Opts) datasourceschema.Attribute {
	lib := datasourcetimeouts.AttributesWithOpts(ctx, opts)
	attr, ok := lib.(datasourceschema.SingleNestedAttribute)
	if !ok {
		return lib
	}
	attr.MarkdownDescription = timeoutsDescription
	for name, a := range attr.Attributes {
		if s, ok := a.(datasourceschema.StringAttribute); ok {
			s.MarkdownDescription, s.Description = s.Description, ""
			s.Validators = durationsOnly
			attr.Attributes[name] = s
		}
	}
	return attr
}

// ephemeralTimeouts is ephemeraltimeouts.AttributesWithOpts with bounded
// durations and markdown descriptions.
func ephemeralTimeouts(ctx context.Context, opts ephemeraltimeouts.Opts) ephemeralschema.Attribute {
	lib := ephemeraltimeouts.AttributesWithOpts(ctx, opts)
	attr, ok := lib.(ephemeralschema.SingleNestedAttribute)
	if !ok {
		return lib
	}
	attr.MarkdownDescription = timeoutsDescription
	for name, a := range attr.Attributes {
		if s, ok := a.(ephemeralschema.StringAttribute); ok {
			s.MarkdownDescription, s.Description = s.Description, ""
			s.Validators = durationsOnly
			attr.Attributes[name] = s
		}
	}
	return attr
}
