package contract

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// This file compares two schemas for the drift test, keyword by keyword,
// down to their properties, items and subschemas (see specdiff.go).

// schema compares two schemas, $refs resolved, and recurses into their
// properties, items and subschemas. field is the path within the body.
func (d *specDiffer) schema(where, field string, oursRef, theirsRef *openapi3.SchemaRef) {
	at := where + " " + field
	if field == "" {
		at = where + " body"
	}
	ours, theirs := schemaOf(oursRef), schemaOf(theirsRef)
	switch {
	case ours == nil && theirs == nil:
		return
	case theirs == nil:
		d.addf(at, "a schema only in the in-repo description")
		return
	case ours == nil:
		d.addf(at, "a schema only in the vendor spec")
		return
	}
	pair := [2]*openapi3.Schema{ours, theirs}
	if slices.Contains(d.inProgress, pair) {
		return // a $ref cycle: this pair is being compared further up
	}
	d.inProgress = append(d.inProgress, pair)
	defer func() { d.inProgress = d.inProgress[:len(d.inProgress)-1] }()

	for _, fact := range schemaFacts {
		if a, b := fact.of(ours), fact.of(theirs); a != b {
			d.addf(at, "%s %s vs %s", fact.name, a, b)
		}
	}
	d.enum(at, ours.Enum, theirs.Enum)
	d.properties(where, field, ours, theirs)
	d.subschema(where, field+"[]", "items", ours.Items, theirs.Items)
	d.subschema(where, field+".*", "additionalProperties", ours.AdditionalProperties.Schema, theirs.AdditionalProperties.Schema)
	d.subschema(where, field+"(not)", "not", ours.Not, theirs.Not)
	for _, c := range []struct {
		name         string
		ours, theirs openapi3.SchemaRefs
	}{{"allOf", ours.AllOf, theirs.AllOf}, {"anyOf", ours.AnyOf, theirs.AnyOf}, {"oneOf", ours.OneOf, theirs.OneOf}} {
		if len(c.ours) != len(c.theirs) {
			d.addf(at, "%d %s schemas vs %d", len(c.ours), c.name, len(c.theirs))
			continue
		}
		for i := range c.ours {
			d.schema(where, fmt.Sprintf("%s(%s %d)", field, c.name, i), c.ours[i], c.theirs[i])
		}
	}
}

func schemaOf(ref *openapi3.SchemaRef) *openapi3.Schema {
	if ref == nil {
		return nil
	}
	return ref.Value
}

// subschema compares a nested schema that either side may lack.
func (d *specDiffer) subschema(where, field, name string, ours, theirs *openapi3.SchemaRef) {
	switch {
	case ours == nil && theirs == nil:
	case theirs == nil:
		d.addf(where+" "+field, "%s only in the in-repo description", name)
	case ours == nil:
		d.addf(where+" "+field, "%s only in the vendor spec", name)
	default:
		d.schema(where, field, ours, theirs)
	}
}

// properties compares an object's fields both ways, and whether each is
// required. A vendor field ours lacks is a difference unless listed in
// undescribed.
func (d *specDiffer) properties(where, field string, ours, theirs *openapi3.Schema) {
	names := unionKeys(ours.Properties, theirs.Properties)
	for _, name := range append(slices.Clone(ours.Required), theirs.Required...) {
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	for _, name := range names {
		at := where + " " + field + "." + name
		a, b := ours.Properties[name], theirs.Properties[name]
		switch {
		case a == nil && b != nil:
			if _, ok := d.undescribed[at]; ok {
				d.used[at] = true
				continue
			}
			d.addf(at, "only in the vendor spec")
			continue
		case a != nil && b == nil:
			d.addf(at, "only in the in-repo description")
			continue
		}
		if ra, rb := slices.Contains(ours.Required, name), slices.Contains(theirs.Required, name); ra != rb {
			d.addf(at, "%s vs %s", requiredWord(ra), requiredWord(rb))
		}
		d.schema(where, field+"."+name, a, b)
	}
}

func requiredWord(required bool) string {
	if required {
		return "required"
	}
	return "optional"
}

// enum compares the allowed values as sets, naming each one-sided value.
func (d *specDiffer) enum(at string, ours, theirs []any) {
	a, b := jsonSet(ours), jsonSet(theirs)
	for _, v := range unionKeys(a, b) {
		switch {
		case !b[v]:
			d.addf(at, "enum value %s only in the in-repo description", v)
		case !a[v]:
			d.addf(at, "enum value %s only in the vendor spec", v)
		}
	}
}

func jsonSet(values []any) map[string]bool {
	out := make(map[string]bool, len(values))
	for _, v := range values {
		out[jsonText(v)] = true
	}
	return out
}

// schemaFacts are the single-valued keywords of a schema that must agree,
// each rendered as text ("(none)" when absent).
var schemaFacts = []struct {
	name string
	of   func(*openapi3.Schema) string
}{
	{"type", func(s *openapi3.Schema) string {
		if s.Type == nil || len(*s.Type) == 0 {
			return "(none)"
		}
		return strings.Join(slices.Sorted(slices.Values(*s.Type)), "|")
	}},
	{"format", func(s *openapi3.Schema) string { return orNone(s.Format) }},
	{"nullable", func(s *openapi3.Schema) string { return strconv.FormatBool(s.Nullable) }},
	{"default", func(s *openapi3.Schema) string { return jsonText(s.Default) }},
	{"minimum", func(s *openapi3.Schema) string { return floatText(s.Min) }},
	{"maximum", func(s *openapi3.Schema) string { return floatText(s.Max) }},
	{"exclusiveMinimum", func(s *openapi3.Schema) string { return boundText(s.ExclusiveMin) }},
	{"exclusiveMaximum", func(s *openapi3.Schema) string { return boundText(s.ExclusiveMax) }},
	{"multipleOf", func(s *openapi3.Schema) string { return floatText(s.MultipleOf) }},
	{"minLength", func(s *openapi3.Schema) string { return strconv.FormatUint(s.MinLength, 10) }},
	{"maxLength", func(s *openapi3.Schema) string { return uintText(s.MaxLength) }},
	{"pattern", func(s *openapi3.Schema) string { return orNone(s.Pattern) }},
	{"minItems", func(s *openapi3.Schema) string { return strconv.FormatUint(s.MinItems, 10) }},
	{"maxItems", func(s *openapi3.Schema) string { return uintText(s.MaxItems) }},
	{"uniqueItems", func(s *openapi3.Schema) string { return strconv.FormatBool(s.UniqueItems) }},
	{"minProperties", func(s *openapi3.Schema) string { return strconv.FormatUint(s.MinProps, 10) }},
	{"maxProperties", func(s *openapi3.Schema) string { return uintText(s.MaxProps) }},
	{"additionalProperties", func(s *openapi3.Schema) string {
		switch ap := s.AdditionalProperties; {
		case ap.Schema != nil:
			return "a schema"
		case ap.Has != nil:
			return strconv.FormatBool(*ap.Has)
		default:
			return "(none)"
		}
	}},
	{"readOnly", func(s *openapi3.Schema) string { return strconv.FormatBool(s.ReadOnly) }},
	{"writeOnly", func(s *openapi3.Schema) string { return strconv.FormatBool(s.WriteOnly) }},
	{"deprecated", func(s *openapi3.Schema) string { return strconv.FormatBool(s.Deprecated) }},
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func floatText(f *float64) string {
	if f == nil {
		return "(none)"
	}
	return strconv.FormatFloat(*f, 'g', -1, 64)
}

func uintText(n *uint64) string {
	if n == nil {
		return "(none)"
	}
	return strconv.FormatUint(*n, 10)
}

// boundText renders an exclusive bound: a number (OpenAPI 3.1), or whether
// minimum or maximum is exclusive (3.0, where absent means false).
func boundText(b openapi3.ExclusiveBound) string {
	if b.Value != nil {
		return floatText(b.Value)
	}
	return strconv.FormatBool(b.IsTrue())
}

// jsonText renders a value as JSON ("(none)" for nil), so values compare
// the same whether parsed from JSON or YAML.
func jsonText(v any) string {
	if v == nil {
		return "(none)"
	}
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	return string(data)
}

// unionKeys returns the keys of a and b, sorted.
func unionKeys[V any](a, b map[string]V) []string {
	keys := slices.Collect(maps.Keys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}
