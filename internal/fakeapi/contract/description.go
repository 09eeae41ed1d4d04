package contract

import (
	_ "embed" // the in-repo API description
	"fmt"

	"github.com/getkin/kin-openapi/openapi3"
)

// descriptionYAML is the project's own OpenAPI description of the Mintlify
// API operations it uses. It travels inside the test binaries, so the
// checks need no file beside the checkout.
//
//go:embed mintlify.openapi.yaml
var descriptionYAML []byte

// Description parses and validates the in-repo OpenAPI description
// (mintlify.openapi.yaml). Each call returns a fresh document, which the
// caller may change. Its paths are absolute from the API's base URL
// ("/v1/static-export/jobs", "/v2/agent/{projectId}/job/{id}").
func Description() (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(descriptionYAML)
	if err != nil {
		return nil, fmt.Errorf("load the in-repo OpenAPI description mintlify.openapi.yaml: %w", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, fmt.Errorf("the in-repo OpenAPI description mintlify.openapi.yaml is invalid: %w", err)
	}
	return doc, nil
}
