package main

import (
	"context"
	"flag"
	"log"

	"github.com/mintlify/terraform-provider-mintlify/internal/serve"
	"github.com/mintlify/terraform-provider-mintlify/provider"
)

// version is set by the release build with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	var debugMode bool
	flag.BoolVar(&debugMode, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()

	if err := serve.Run(context.Background(), provider.New(version), debugMode); err != nil {
		log.Fatal(err)
	}
}
