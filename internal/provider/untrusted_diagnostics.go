package provider

import (
	"fmt"

	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// The diagnostics of answers the client refused to trust: a bundle link it
// would not use. apiOperation.describe (diagnostics.go) picks them.

// unsafeLinkDiagnostic explains a bundle link the client refused to use.
func unsafeLinkDiagnostic(e *mintlify.UnsafeLinkError, doing string) (summary, detail string) {
	if !e.Plain {
		return "Invalid Bundle Link", fmt.Sprintf("The Mintlify API returned a bundle link for static export job "+
			"%s that is not an absolute http(s) URL, while %s, so the provider did not use it. Apply again; if the "+
			"API keeps answering this way, report the job ID to Mintlify support.", e.JobID, doing)
	}
	return "Unencrypted Bundle Link Refused", fmt.Sprintf("The Mintlify API returned a bundle link for static "+
		"export job %s that uses plain http (host %s), while %s. The provider refused it: an unencrypted link "+
		"would expose the bundle, and the signature that grants access to it, to anyone on the network path. "+
		"Plain http links are accepted only when the provider's `base_url` is a loopback address, such as a local "+
		"test API. Check that `base_url` is the Mintlify API and not a proxy that rewrites links; if it is, report "+
		"the job ID to Mintlify support.", e.JobID, e.Host, doing)
}
