package providertest

import (
	"github.com/mintlify/terraform-provider-mintlify/internal/acctest"
	"github.com/mintlify/terraform-provider-mintlify/internal/clock"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/contract"
	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi/fakeapitest"
)

// The test support that a family's tests use from internal/acctest,
// internal/fakeapi/fakeapitest, internal/fakeapi/contract and
// internal/clock, under the names below: a family's tests import
// providertest and the stand-in (internal/fakeapi) and no other test
// support (TestPackageLayout).

// ProjectID is the project the provider block of Env.Config names.
const ProjectID = acctest.ProjectID

type (
	// Env is one acceptance test's world (acctest.Env).
	Env = acctest.Env
	// CLI is the CLI under test outside terraform-plugin-testing
	// (acctest.CLI).
	CLI = acctest.CLI
	// Result is what a CLI command did (acctest.Result).
	Result = acctest.Result
	// Instance is a resource instance in the CLI's state (acctest.Instance).
	Instance = acctest.Instance
	// FakeClock is the virtual clock of a test's stand-in (clock.Fake).
	FakeClock = clock.Fake
	// WaitingClock is a FakeClock that tells when the provider first
	// waits on it (acctest.WaitingClock).
	WaitingClock = acctest.WaitingClock
)

// The helpers of internal/acctest.
var (
	NewEnv               = acctest.New
	NewWaitingClock      = acctest.NewWaitingClock
	ServedCLI            = acctest.ServedCLI
	BuiltCLI             = acctest.BuiltCLI
	WithEnv              = acctest.WithEnv
	ExpectError          = acctest.ExpectError
	ExpectLines          = acctest.ExpectLines
	ExpectOnlyFiles      = acctest.ExpectOnlyFiles
	ExpectRenewalInPlace = acctest.ExpectRenewalInPlace
	CheckArchiveOnDisk   = acctest.CheckArchiveOnDisk
	CheckBundleLinkWorks = acctest.CheckBundleLinkWorks
	ProgressLines        = acctest.ProgressLines
	SkipUnlessVersion    = acctest.SkipUnlessVersion
	CLIContract          = acctest.CLIContract
	VersionMeets         = acctest.VersionMeets
	AgentPlan            = acctest.AgentPlan
	AgentPlanByPrompt    = acctest.AgentPlanByPrompt
	SizedArchives        = acctest.SizedArchives
	Indent               = acctest.Indent
)

// How the stand-in is served to a test (internal/fakeapi/fakeapitest), and
// the check of every exchange against the API's description
// (internal/fakeapi/contract).
var (
	ServeFake    = fakeapitest.New
	FakeOptions  = fakeapitest.Fake
	ServeHandler = fakeapitest.Handler
	ManualClock  = fakeapitest.ManualClock
	ServeChecked = contract.Serve
)
