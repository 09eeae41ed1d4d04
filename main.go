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
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()

	quietUnreadLogs()
	collectGarbageLessOften()
	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address: "registry.terraform.io/mintlify/mintlify",
		Debug:   debug,
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
// TF_LOG variable asks for logs. Terraform discards them then, but each line
// is still formatted as JSON here and parsed again by Terraform. The
// framework's alone took a 100-bundle `terraform plan` from 10.4 to 6.8
// times a 100-terraform_data plan; the rest, about 2,200 lines (trace lines
// of every gRPC call and the API client's debug lines), cost another 6 %
// (make bench-e2e). Any TF_LOG setting leaves everything as the user asked.
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
// before a collection instead of two, unless GOGC says otherwise. A provider
// process lives for one Terraform command and keeps a few MiB live, but a
// 100-bundle `terraform plan` allocates over 100 MiB in framework calls: at
// Go's default the collector ran about 30 times and took 15 % of the
// process's CPU. At 200 that plan takes 6 % less time and the process peaks
// at about 50 MiB instead of 43 (make bench-e2e); at 400, over 64 MiB.
func collectGarbageLessOften() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
}
