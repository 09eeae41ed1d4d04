// Package providertest is the one test kit of the acceptance tests: those
// of every family, of internal/provider and of internal/docstest. Its
// parts, in the order a test author meets them:
//
//   - world.go: a test's world (Env: the fake API on its virtual clock, and
//     the provider under test on the same clock, in the test process), the
//     provider block that points at it;
//   - env.go: the provider of the test binary's families (Main,
//     NewTestEnv), version gates, checks of requests, state and files;
//   - config.go, deployment_config.go, project_export.go: the HCL the tests
//     apply, and their addresses;
//   - cli*.go: the CLI under test when a test drives it itself (CLI,
//     ServedCLI, BuiltCLI: see cli_path.go), its output and state;
//   - checks.go, archive.go, fake.go, waiting.go, docs_repository.go: the
//     checks of what Terraform says, what the fake was asked and what is on
//     disk, and the clocks and repositories the tests script;
//   - tier.go: CLIContract, the declaration of the CLI-contract tier.
//
// A test imports this kit, the stand-in (internal/fakeapi, with fakeapitest,
// which serves it to a test, and contract), and the clock. The kit does not
// import internal/provider, whose own tests use it: each package passes the
// provider under test as a ProviderFactory (internal/docstest serves the
// whole provider; a family's TestMain names its Family to Main).
//
//	env := NewTestEnv(t, fakeapi.WithStaticExport(fakeapi.StaticExportOptions{LinkTTL: time.Hour}))
//	resource.Test(t, resource.TestCase{
//		ProtoV6ProviderFactories: env.ProviderFactories(),
//		Steps: []resource.TestStep{{
//			Config: env.Config(`resource "mintlify_static_export_bundle" "docs" { domain = "docs.example.com" }`),
//			Check:  CheckBundleLinkWorks("mintlify_static_export_bundle.docs"),
//		}},
//	})
package providertest
