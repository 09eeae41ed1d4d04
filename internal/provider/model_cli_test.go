package provider

import (
	"context"
	"io"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

// loggingServer sends the provider's logs, at TRACE, to out: the ones a
// user would see with TF_LOG=TRACE.
type loggingServer struct {
	tfprotov6.ProviderServer
	out io.Writer
}

func (l loggingServer) logged(ctx context.Context) context.Context {
	return tflogtest.RootLogger(ctx, l.out)
}

func (l loggingServer) ConfigureProvider(ctx context.Context, req *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	return l.ProviderServer.ConfigureProvider(l.logged(ctx), req)
}

func (l loggingServer) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	return l.ProviderServer.ReadResource(l.logged(ctx), req)
}

func (l loggingServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	return l.ProviderServer.PlanResourceChange(l.logged(ctx), req)
}

func (l loggingServer) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	return l.ProviderServer.ApplyResourceChange(l.logged(ctx), req)
}

func (l loggingServer) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	return l.ProviderServer.ImportResourceState(l.logged(ctx), req)
}
