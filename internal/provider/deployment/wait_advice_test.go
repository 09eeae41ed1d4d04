package deployment

import (
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

// TestWaitAdviceNamesNoPlaceholder: what the deployment and the preview
// advise after a wait (a failed or unknown status, a timeout) never names
// a placeholder such as `mintlify_deployment.NAME`, which a user would
// paste as it is: the protocol gives a provider no resource address, so a
// command that needs one points at the address Terraform prints above the
// message, after `with`.
func TestWaitAdviceNamesNoPlaceholder(t *testing.T) {
	t.Parallel()
	b := core.Budget("timeouts.create", 30*time.Minute)
	for name, w := range map[string]deploymentWait{
		"deployment create": deploymentWaitOnCreate(b),
		"deployment resume": deploymentWaitOnResume(b),
		"preview create":    previewWaitOnCreate(b),
		"preview update":    previewWaitOnUpdate(b),
	} {
		for what, text := range map[string]string{"resume": w.Resume, "retry": w.Retry, "unknown": w.Unknown, "failed": w.Failed} {
			if strings.Contains(text, "NAME") || strings.Contains(text, "<name>") {
				t.Errorf("%s, %s: the advice names a placeholder: %s", name, what, text)
			}
			if strings.Contains(text, "terraform untaint") || strings.Contains(text, "-replace") {
				if !strings.Contains(text, "with the resource's address, shown above after `with`") {
					t.Errorf("%s, %s: the advice gives a command without saying where its address is: %s", name, what, text)
				}
			}
		}
	}
}
