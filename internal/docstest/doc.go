// Package docstest checks what users read and copy: every configuration in
// the README and CONTRIBUTING.md, the templates under templates/ (from which docs/ is
// generated) and examples/ is complete, `terraform fmt` clean, and goes
// through `terraform init` and `terraform validate`; and the examples of
// the registry docs and of the guides do, when applied against the fake
// API, what the docs say they do.
//
// The tests run the real Terraform CLI: the acceptance-style ones with the
// provider served from the test process on the fake API's virtual clock
// (provider.NewOnClock), TestExamplesAsWritten with the provider built as a
// plugin binary (internal/devprovider). A test of how the provider behaves
// that only happens to use an example belongs in internal/provider.
package docstest
