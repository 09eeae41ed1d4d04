// Package serve runs the provider as Terraform's plugin process: it tunes
// the process for the one Terraform command it lives for, then serves the
// provider until Terraform stops it. internal/mintlify/poll/DESIGN.md says what each
// setting measured.
package serve

import (
	"context"
	"os"
	"runtime/debug"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
)

// address is the provider's address in the Terraform registry.
const address = "registry.terraform.io/mintlify/mintlify"

// Run serves the provider that newProvider makes, with support for
// debuggers like delve when debugMode is set, until Terraform stops it. Before serving,
// it turns off the loggers no one reads and lets the heap grow further
// between collections (see quietUnreadLogs and collectGarbageLessOften).
func Run(ctx context.Context, newProvider func() provider.Provider, debugMode bool) error {
	quietUnreadLogs()
	collectGarbageLessOften()
	return providerserver.Serve(ctx, newProvider, providerserver.ServeOpts{
		Address: address,
		Debug:   debugMode,
	})
}

// logVariables are the settings under which someone reads the provider's
// logs.
var logVariables = []string{
	"TF_LOG", "TF_LOG_PROVIDER", "TF_LOG_PROVIDER_MINTLIFY", "TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK",
}

// unreadLoggers are the provider's own loggers and those of the libraries
// that serve it (terraform-plugin-go's sdk.proto, terraform-plugin-framework).
var unreadLoggers = []string{"TF_LOG_PROVIDER_MINTLIFY", "TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK"}

// quietUnreadLogs turns every logger of the provider process off when no
// TF_LOG variable asks for logs: Terraform discards them then, yet each line
// would still be formatted here and parsed again by Terraform. Any TF_LOG
// setting leaves every logger as the user asked.
func quietUnreadLogs() {
	for _, v := range logVariables {
		if os.Getenv(v) != "" {
			return
		}
	}
	for _, v := range unreadLoggers {
		_ = os.Setenv(v, "OFF")
	}
}

// collectGarbageLessOften lets the heap grow to three times what is live
// before a collection instead of two (GOGC=200), unless GOGC is set: a
// provider process lives for one Terraform command, keeps little live and
// allocates much in framework calls. make bench-e2e measures the plan that
// both settings speed up.
func collectGarbageLessOften() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
}
