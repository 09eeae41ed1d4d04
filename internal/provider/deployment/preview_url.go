package deployment

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// previewURL is the preview's address as the API gave it, when it is
// https: a preview's address is posted where people click it (a pull
// request, a chat), and a plain http one would send them, and what they
// type there, over an unencrypted connection. Any other address is not
// stored, and the warning says why, naming its host escaped.
func previewURL(link, statusID, projectID, branch string) (string, diag.Diagnostic) {
	u, err := url.Parse(link)
	if link == "" || err == nil && u.Scheme == "https" && u.Host != "" {
		return link, nil
	}
	// The host as written, also when the link does not parse (a control
	// character in it, say): what follows the scheme and any user name, up
	// to the path, the query or the fragment.
	_, host, _ := strings.Cut(link, "://")
	if i := strings.IndexAny(host, "/?#"); i >= 0 {
		host = host[:i]
	}
	if i := strings.LastIndex(host, "@"); i >= 0 {
		host = host[i+1:]
	}
	if err == nil {
		host = u.Host
	}
	if host = escaped(host); host == `""` {
		host = "none"
	}
	return "", diag.NewWarningDiagnostic("Unencrypted Preview URL Refused", fmt.Sprintf("The Mintlify API gave an "+
		"address for the preview of branch %s (%s) that is not an https URL (host %s). The provider did not "+
		"store it: `preview_url` is null, so that nothing posts an unencrypted link to the preview. The deployment "+
		"itself goes on. Check that the provider's `base_url` is the Mintlify API and not a proxy that rewrites "+
		"links; if it is, report the status id to Mintlify support.", escaped(branch),
		deploymentName(statusID, projectID), host))
}

// escaped is s quoted as Go quotes a string, every character outside
// printable ASCII escaped, so that no control, bidirectional or look-alike
// character reaches the terminal as itself. internal/mintlify will have the
// client's own helper for the hosts of every link.
func escaped(s string) string { return strconv.QuoteToASCII(s) }
