package contract

import (
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// vendorShaped returns two fresh copies of the in-repo description laid out
// as the vendor lays out its files: the static export operations under a
// server ending in /v1 with paths relative to it, and the agent operations
// under the bare host. Compared with the in-repo description they differ in
// nothing.
func vendorShaped(t *testing.T) (staticExport, admin *openapi3.T) {
	t.Helper()
	staticExport, admin = mustDescription(t), mustDescription(t)
	staticExport.Servers = openapi3.Servers{{URL: "https://api.mintlify.com/v1"}}
	all := staticExport.Paths.Map()
	staticExport.Paths = openapi3.NewPaths()
	for path, item := range all {
		if item.Post != nil && aheadOfVendor(item.Post) { // not in the vendor's files yet
			admin.Paths.Delete(path)
			continue
		}
		if rest, ok := strings.CutPrefix(path, "/v1/"); ok {
			staticExport.Paths.Set("/"+rest, item)
			admin.Paths.Delete(path)
		}
	}
	return staticExport, admin
}

// webhookPath is the operation the in-repo description has ahead of the
// vendor's files (notInVendorSpec).
const webhookPath = "/v2/workflow/{projectId}/{workflowSchemaId}/webhook"

func mustDescription(t *testing.T) *openapi3.T {
	t.Helper()
	doc, err := Description()
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func schemaNamed(doc *openapi3.T, name string) *openapi3.Schema {
	return doc.Components.Schemas[name].Value
}

// TestDiffCatchesDrift proves the comparer finds each kind of drift, names
// where it is, and finds nothing when the documents agree.
func TestDiffCatchesDrift(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		drift       func(staticExport, admin *openapi3.T)
		undescribed map[string]string
		want        []string // each must be reported (among others)
	}{
		{
			name:  "the same contract",
			drift: func(_, _ *openapi3.T) {},
		},
		{
			name: "changed enum",
			drift: func(se, _ *openapi3.T) {
				status := schemaNamed(se, "StaticExportJob").Properties["status"].Value
				status.Enum = []any{"queued", "running", "completed", "failed", "cancelled"}
			},
			want: []string{
				`GET /v1/static-export/jobs/{jobId} 200 .status: enum value "cancelled" only in the vendor spec`,
				`POST /v1/static-export/jobs 202 .status: enum value "cancelled" only in the vendor spec`,
			},
		},
		{
			name: "removed enum value",
			drift: func(_, admin *openapi3.T) {
				status := schemaNamed(admin, "AgentJob").Properties["status"].Value
				status.Enum = slices.DeleteFunc(status.Enum, func(v any) bool { return v == "archived" })
			},
			want: []string{`GET /v2/agent/{projectId}/job/{id} 200 .status: enum value "archived" only in the in-repo description`},
		},
		{
			name: "removed required",
			drift: func(se, _ *openapi3.T) {
				job := schemaNamed(se, "StaticExportJob")
				job.Required = slices.DeleteFunc(job.Required, func(n string) bool { return n == "pageCount" })
			},
			want: []string{`GET /v1/static-export/jobs/{jobId} 200 .pageCount: required vs optional`},
		},
		{
			name: "extra vendor field",
			drift: func(se, _ *openapi3.T) {
				schemaNamed(se, "BundleResponse").Properties["checksum"] = openapi3.NewStringSchema().NewRef()
			},
			want: []string{`POST /v1/static-export/jobs/{jobId}/bundle 200 .checksum: only in the vendor spec`},
		},
		{
			name: "extra vendor field left out on purpose",
			drift: func(se, _ *openapi3.T) {
				schemaNamed(se, "BundleResponse").Properties["checksum"] = openapi3.NewStringSchema().NewRef()
			},
			undescribed: map[string]string{"POST /v1/static-export/jobs/{jobId}/bundle 200 .checksum": "not used"},
		},
		{
			name:        "stale allow-list entry",
			drift:       func(_, _ *openapi3.T) {},
			undescribed: map[string]string{"POST /v1/static-export/jobs/{jobId}/bundle 200 .checksum": "not used"},
			want:        []string{"POST /v1/static-export/jobs/{jobId}/bundle 200 .checksum: listed as a vendor field we leave out, but the vendor spec has no such field"},
		},
		{
			name: "field the vendor dropped, nested",
			drift: func(_, admin *openapi3.T) {
				delete(schemaNamed(admin, "AgentJob").Properties["source"].Value.Properties, "ref")
			},
			want: []string{`POST /v2/agent/{projectId}/job 201 .source.ref: only in the in-repo description`},
		},
		{
			name: "missing status",
			drift: func(se, _ *openapi3.T) {
				se.Paths.Find("/static-export/jobs/{jobId}").Get.Responses.Delete("404")
			},
			want: []string{`GET /v1/static-export/jobs/{jobId}: status 404 only in the in-repo description`},
		},
		{
			name: "new status",
			drift: func(_, admin *openapi3.T) {
				admin.Paths.Find("/v2/agent/{projectId}/job/{id}").Get.Responses.Set("429", admin.Paths.Find("/v2/agent/{projectId}/job").Post.Responses.Value("429"))
			},
			want: []string{`GET /v2/agent/{projectId}/job/{id}: status 429 only in the vendor spec`},
		},
		{
			name: "type, format, nullability and bounds",
			drift: func(se, admin *openapi3.T) {
				job := schemaNamed(se, "StaticExportJob")
				job.Properties["progress"].Value.Type = &openapi3.Types{openapi3.TypeInteger}
				job.Properties["progress"].Value.Max = nil
				job.Properties["createdAt"].Value.Format = ""
				schemaNamed(admin, "AgentJob").Properties["prLink"].Value.Nullable = false
			},
			want: []string{
				"GET /v1/static-export/jobs/{jobId} 200 .progress: type number vs integer",
				"GET /v1/static-export/jobs/{jobId} 200 .progress: maximum 100 vs (none)",
				"GET /v1/static-export/jobs/{jobId} 200 .createdAt: format date-time vs (none)",
				"GET /v2/agent/{projectId}/job/{id} 200 .prLink: nullable true vs false",
			},
		},
		{
			name: "request body",
			drift: func(se, admin *openapi3.T) {
				start := schemaNamed(se, "StartStaticExportRequest")
				start.Properties["paths"].Value.Items.Value.Type = &openapi3.Types{openapi3.TypeObject}
				prompt := schemaNamed(admin, "AgentPrompt").Properties["prompt"].Value
				prompt.MinLength = 0
			},
			want: []string{
				"POST /v1/static-export/jobs request .paths[]: type string vs object",
				"POST /v2/agent/{projectId}/job request .prompt: minLength 1 vs 0",
				"POST /v2/agent/{projectId}/job/{id}/message request .prompt: minLength 1 vs 0",
			},
		},
		{
			name: "parameter",
			drift: func(_, admin *openapi3.T) {
				op := admin.Paths.Find("/v2/agent/{projectId}/job/{id}").Get
				op.Parameters = append(op.Parameters, &openapi3.ParameterRef{Value: openapi3.NewQueryParameter("verbose").WithSchema(openapi3.NewBoolSchema())})
			},
			want: []string{"GET /v2/agent/{projectId}/job/{id} parameter query verbose: only in the vendor spec"},
		},
		{
			name: "operation moved",
			drift: func(se, _ *openapi3.T) {
				se.Servers = openapi3.Servers{{URL: "https://api.mintlify.com/v2"}}
			},
			want: []string{
				"GET /v1/static-export/jobs/{jobId}: not in the vendor spec",
				"POST /v1/static-export/jobs: not in the vendor spec",
				"POST /v1/static-export/jobs/{jobId}/bundle: not in the vendor spec",
			},
		},
		{
			name: "an operation ahead of the vendor's files, which gain it",
			drift: func(_, admin *openapi3.T) {
				admin.Paths.Set(webhookPath, mustDescription(t).Paths.Find(webhookPath))
			},
			want: []string{"POST " + webhookPath + ": now in the vendor spec: drop its x-not-in-vendor-spec and follow the vendor's file"},
		},
		{
			name: "operation deprecated",
			drift: func(_, admin *openapi3.T) {
				admin.Paths.Find("/v2/agent/{projectId}/job/{id}").Get.Deprecated = true
			},
			want: []string{"GET /v2/agent/{projectId}/job/{id}: deprecated false vs true"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ours := mustDescription(t)
			staticExport, admin := vendorShaped(t)
			tt.drift(staticExport, admin)
			got := diffAgainstVendor(ours, []*openapi3.T{staticExport, admin}, tt.undescribed)
			if len(tt.want) == 0 && len(got) > 0 {
				t.Errorf("differences:\n%s\nwant none", strings.Join(got, "\n"))
			}
			for _, w := range tt.want {
				if !slices.Contains(got, w) {
					t.Errorf("differences:\n%s\nwant among them:\n%s", strings.Join(got, "\n"), w)
				}
			}
		})
	}
}
