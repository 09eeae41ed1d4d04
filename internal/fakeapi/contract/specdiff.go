package contract

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// This file compares the in-repo description with the vendor's OpenAPI
// files, operation by operation, so that the drift test (TestVendorDrift)
// can say exactly where they part. Every difference is reported as
// "<where>: <what>", where is the operation ("GET /v1/static-export/jobs/{jobId}"),
// then the status or "request" or a parameter, then the field path
// (".source.ref", ".paths[]"); a value pair reads "in-repo vs vendor":
//
//	GET /v1/static-export/jobs/{jobId} 200 .progress: type number vs integer

// diffAgainstVendor returns every difference between ours and the vendor's
// documents for each operation ours describes. Operations are matched on
// method and full path: each document's server path ("/v1") is prefixed to
// its paths. undescribed lists vendor fields ours leaves out on purpose,
// keyed by where they are reported ("POST /v2/agent/{projectId}/job 201 .x");
// an entry that matches nothing is itself a difference, so the list cannot
// go stale.
func diffAgainstVendor(ours *openapi3.T, vendor []*openapi3.T, undescribed map[string]string) []string {
	d := &specDiffer{undescribed: undescribed, used: make(map[string]bool)}
	theirs := make(map[string]operationAt)
	for _, doc := range vendor {
		for key, op := range operationsOf(doc) {
			if _, dup := theirs[key]; dup {
				d.addf(key, "defined by two vendor files")
			}
			theirs[key] = op
		}
	}
	mine := operationsOf(ours)
	for _, key := range slices.Sorted(maps.Keys(mine)) {
		other, ok := theirs[key]
		if !ok {
			d.addf(key, "not in the vendor spec")
			continue
		}
		d.operation(key, mine[key], other)
	}
	for _, where := range slices.Sorted(maps.Keys(undescribed)) {
		if !d.used[where] {
			d.addf(where, "listed as a vendor field we leave out, but the vendor spec has no such field")
		}
	}
	return d.diffs
}

// operationAt is one operation with the document and path item it sits in.
type operationAt struct {
	doc  *openapi3.T
	item *openapi3.PathItem
	op   *openapi3.Operation
}

// operationsOf indexes doc's operations by "METHOD /server-path/path".
func operationsOf(doc *openapi3.T) map[string]operationAt {
	base := ""
	if len(doc.Servers) > 0 {
		if u, err := url.Parse(doc.Servers[0].URL); err == nil {
			base = strings.TrimSuffix(u.Path, "/")
		}
	}
	out := make(map[string]operationAt)
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			out[method+" "+base+path] = operationAt{doc: doc, item: item, op: op}
		}
	}
	return out
}

// specDiffer collects differences. It is used by one goroutine.
type specDiffer struct {
	undescribed map[string]string
	used        map[string]bool
	diffs       []string
	inProgress  [][2]*openapi3.Schema // schema pairs being compared, against $ref cycles
}

func (d *specDiffer) addf(where, format string, args ...any) {
	d.diffs = append(d.diffs, where+": "+fmt.Sprintf(format, args...))
}

// operation compares one operation: deprecation, security, parameters,
// request body and responses.
func (d *specDiffer) operation(key string, ours, theirs operationAt) {
	if ours.op.Deprecated != theirs.op.Deprecated {
		d.addf(key, "deprecated %t vs %t", ours.op.Deprecated, theirs.op.Deprecated)
	}
	d.security(key, ours, theirs)
	d.parameters(key, parametersOf(ours), parametersOf(theirs))
	d.requestBody(key+" request", ours.op.RequestBody, theirs.op.RequestBody)
	d.responses(key, ours.op.Responses, theirs.op.Responses)
}

// security compares the schemes an operation needs (its own requirement,
// or the document's), by scheme type and HTTP scheme; names may differ.
func (d *specDiffer) security(key string, ours, theirs operationAt) {
	a, b := securityOf(ours), securityOf(theirs)
	if !slices.Equal(a, b) {
		d.addf(key, "security %v vs %v", a, b)
	}
}

func securityOf(at operationAt) []string {
	reqs := at.doc.Security
	if at.op.Security != nil {
		reqs = *at.op.Security
	}
	var out []string
	for _, req := range reqs {
		for name := range req {
			kind := "undefined scheme " + name
			if ref := at.doc.Components.SecuritySchemes[name]; ref != nil && ref.Value != nil {
				kind = strings.TrimSpace(ref.Value.Type + " " + ref.Value.Scheme)
			}
			out = append(out, kind)
		}
	}
	slices.Sort(out)
	return out
}

// parametersOf merges an operation's parameters over its path item's, keyed
// by "in name".
func parametersOf(at operationAt) map[string]*openapi3.Parameter {
	out := make(map[string]*openapi3.Parameter)
	for _, params := range []openapi3.Parameters{at.item.Parameters, at.op.Parameters} {
		for _, ref := range params {
			if ref != nil && ref.Value != nil {
				out[ref.Value.In+" "+ref.Value.Name] = ref.Value
			}
		}
	}
	return out
}

func (d *specDiffer) parameters(key string, ours, theirs map[string]*openapi3.Parameter) {
	for _, name := range unionKeys(ours, theirs) {
		where := key + " parameter " + name
		a, b := ours[name], theirs[name]
		switch {
		case b == nil:
			d.addf(where, "only in the in-repo description")
		case a == nil:
			d.addf(where, "only in the vendor spec")
		default:
			if a.Required != b.Required {
				d.addf(where, "required %t vs %t", a.Required, b.Required)
			}
			d.schema(where, "", a.Schema, b.Schema)
		}
	}
}

func (d *specDiffer) requestBody(where string, ours, theirs *openapi3.RequestBodyRef) {
	a, b := requestBodyOf(ours), requestBodyOf(theirs)
	switch {
	case a == nil && b == nil:
	case b == nil:
		d.addf(where, "a body only in the in-repo description")
	case a == nil:
		d.addf(where, "a body only in the vendor spec")
	default:
		if a.Required != b.Required {
			d.addf(where, "body required %t vs %t", a.Required, b.Required)
		}
		d.content(where, a.Content, b.Content)
	}
}

func requestBodyOf(ref *openapi3.RequestBodyRef) *openapi3.RequestBody {
	if ref == nil {
		return nil
	}
	return ref.Value
}

func (d *specDiffer) responses(key string, ours, theirs *openapi3.Responses) {
	a, b := ours.Map(), theirs.Map()
	for _, status := range unionKeys(a, b) {
		switch {
		case b[status] == nil:
			d.addf(key, "status %s only in the in-repo description", status)
		case a[status] == nil:
			d.addf(key, "status %s only in the vendor spec", status)
		default:
			d.response(key+" "+status, a[status].Value, b[status].Value)
		}
	}
}

func (d *specDiffer) response(where string, ours, theirs *openapi3.Response) {
	for _, name := range unionKeys(ours.Headers, theirs.Headers) {
		a, b := ours.Headers[name], theirs.Headers[name]
		switch {
		case b == nil:
			d.addf(where, "header %s only in the in-repo description", name)
		case a == nil:
			d.addf(where, "header %s only in the vendor spec", name)
		default:
			d.schema(where+" header "+name, "", a.Value.Schema, b.Value.Schema)
		}
	}
	d.content(where, ours.Content, theirs.Content)
}

// content compares the media types of a body and the schema of each.
func (d *specDiffer) content(where string, ours, theirs openapi3.Content) {
	for _, mediaType := range unionKeys(ours, theirs) {
		a, b := ours[mediaType], theirs[mediaType]
		switch {
		case b == nil:
			d.addf(where, "content type %s only in the in-repo description", mediaType)
		case a == nil:
			d.addf(where, "content type %s only in the vendor spec", mediaType)
		default:
			at := where
			if mediaType != "application/json" {
				at += " " + mediaType
			}
			d.schema(at, "", a.Schema, b.Schema)
		}
	}
}

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
