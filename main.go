package main

import (
	"context"
	"flag"
	"log"
	"os"
	"runtime/debug"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider"
)

// version is set by the release build with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	var debugMode bool
	flag.BoolVar(&debugMode, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()

	quietUnreadLogs()
	collectGarbageLessOften()
	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address: "registry.terraform.io/mintlify/mintlify",
		Debug:   debugMode,
	})
	if err != nil {
		log.Fatal(err)
	}
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
