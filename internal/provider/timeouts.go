package provider

import (
	"context"
	"fmt"
	"reflect"

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

// resourceTimeouts is resourcetimeouts.Attributes, bounded and in markdown.
func resourceTimeouts(ctx context.Context, opts resourcetimeouts.Opts) resourceschema.Attribute {
	return boundedTimeouts(resourcetimeouts.Attributes(ctx, opts))
}

// dataSourceTimeouts is datasourcetimeouts.AttributesWithOpts, bounded and in
// markdown.
func dataSourceTimeouts(ctx context.Context, opts datasourcetimeouts.Opts) datasourceschema.Attribute {
	return boundedTimeouts(datasourcetimeouts.AttributesWithOpts(ctx, opts))
}

// ephemeralTimeouts is ephemeraltimeouts.AttributesWithOpts, bounded and in
// markdown.
func ephemeralTimeouts(ctx context.Context, opts ephemeraltimeouts.Opts) ephemeralschema.Attribute {
	return boundedTimeouts(ephemeraltimeouts.AttributesWithOpts(ctx, opts))
}

// boundedTimeouts returns the library's `timeouts` attribute (a
// SingleNestedAttribute of string attributes) with timeoutsDescription, and
// each value with its description as markdown and the durationsOnly
// validators. The framework's resource, data source and ephemeral schema
// packages each have their own attribute types, with the same field names:
// this one function serves all three by those names.
func boundedTimeouts[A any](lib A) A {
	nested := settable(reflect.ValueOf(lib))
	nested.FieldByName("MarkdownDescription").SetString(timeoutsDescription)
	values := nested.FieldByName("Attributes")
	for _, name := range values.MapKeys() {
		value := settable(values.MapIndex(name).Elem())
		value.FieldByName("MarkdownDescription").Set(value.FieldByName("Description"))
		value.FieldByName("Description").SetString("")
		value.FieldByName("Validators").Set(reflect.ValueOf(durationsOnly))
		values.SetMapIndex(name, value)
	}
	return nested.Interface().(A) //nolint:forcetypeassert // the library's own type, edited in place
}

// settable is a copy of the struct v that can be edited.
func settable(v reflect.Value) reflect.Value {
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	return c
}
