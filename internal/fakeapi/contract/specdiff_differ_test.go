package contract

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
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
		ahead := aheadOfVendor(mine[key].op)
		switch {
		case !ok && ahead:
			continue
		case !ok:
			d.addf(key, "not in the vendor spec")
			continue
		case ahead:
			d.addf(key, "now in the vendor spec: drop its %s and follow the vendor's file", notInVendorSpec)
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

// notInVendorSpec marks an operation of the in-repo description that
// Mintlify documents, but not yet in its OpenAPI files (such as the webhook
// run of an automation, on a docs page only); its value says where it is
// documented. The drift test leaves such an operation out while the
// vendor's files lack it, and asks for the mark to go once they have it.
const notInVendorSpec = "x-not-in-vendor-spec"

// aheadOfVendor reports whether op carries the notInVendorSpec mark.
func aheadOfVendor(op *openapi3.Operation) bool {
	_, ok := op.Extensions[notInVendorSpec]
	return ok
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
