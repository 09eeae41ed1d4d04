// Command compat runs the acceptance suite, with the ecosystem (Helm) tests,
// under each Terraform and OpenTofu CLI given on the command line, and
// prints per CLI how many tests ran, passed, failed and were skipped because
// the CLI is too old for the feature they test, and how many top-level tests
// of each tier ran. Any other skip, a failure or a CLI under which nothing
// ran makes it exit non-zero. It is the program behind `make test-compat`
// (-tier contract: the tests that check what differs between CLIs, declared
// by providertest.CLIContract) and `make test-matrix` (-tier all: every test).
//
//	go run ./tools/compat [-tier contract|all] [-run REGEXP] CLI...
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/devprovider"
)

// versionSkip is how tfversion.SkipBelow (and providertest.SkipUnlessVersion, for
// the tests that run the CLI directly) words a skip.
const versionSkip = "is below minimum version"

func main() {
	run := flag.String("run", "", "run only the tests matching this regular expression (go test -run)")
	tier := flag.String("tier", tierContract, "the tests to run: "+tierContract+" (the CLI-contract tier) or "+tierAll)
	pkg := flag.String("pkg", "./internal/provider/... ./internal/docstest/...", "the packages holding the acceptance tests, separated by spaces")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: compat [-tier contract|all] [-run REGEXP] [-pkg PACKAGES] CLI...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 || (*tier != tierContract && *tier != tierAll) {
		flag.Usage()
		os.Exit(2)
	}
	contract, err := readContractTier(*pkg)
	if err != nil {
		fail(err)
	}
	pattern := *run
	if *tier == tierContract {
		if pattern, err = contract.runPattern(*run); err != nil {
			fail(err)
		}
	}
	fmt.Printf("==> tier %s: %d tests of the CLI-contract tier in %s\n", *tier, contract.size(), *pkg)
	cfgDir, err := os.MkdirTemp("", "mintlify-compat-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(cfgDir)
	cliConfig := filepath.Join(cfgDir, "terraform.rc")
	// Nothing is installed from either registry: the acceptance tests run
	// the provider in-process and the ecosystem tests bring their own mirror.
	if err := os.WriteFile(cliConfig, []byte(`provider_installation {
  direct {
    exclude = ["registry.terraform.io/*/*", "registry.opentofu.org/*/*"]
  }
}
`), 0o600); err != nil {
		fail(err)
	}

	var rows []result
	for _, bin := range flag.Args() {
		cli, err := devprovider.IdentifyBinary(bin, cliConfig)
		if err != nil {
			fail(err)
		}
		fmt.Printf("==> %s (%s), tier %s: go test %s\n", cli.Name, cli.Path, *tier, *pkg)
		r, err := runSuite(cli, cliConfig, *pkg, pattern, contract)
		if err != nil {
			fail(err)
		}
		fmt.Printf("    %s\n", r.summary())
		rows = append(rows, r)
	}
	printTable(os.Stdout, rows)
	for _, r := range rows {
		if !r.ok() {
			os.Exit(1)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "compat:", err)
	os.Exit(1)
}

type result struct {
	cli                                 devprovider.Binary
	tests, passed, failed, versionSkips int
	// contractRun and otherRun count the top-level tests that ran (passed
	// or failed), in the CLI-contract tier and outside it.
	contractRun, otherRun int
	otherSkips            []string
	elapsed               time.Duration
	buildFailed           bool
}

func (r result) ok() bool {
	return r.failed == 0 && len(r.otherSkips) == 0 && !r.buildFailed && r.tests > 0
}

func (r result) summary() string {
	s := fmt.Sprintf("%d tests: %d run (%d passed, %d failed), %d skipped by version, %d skipped otherwise; "+
		"top-level tests run: %d of the CLI-contract tier, %d others (%s)",
		r.tests, r.passed+r.failed, r.passed, r.failed, r.versionSkips, len(r.otherSkips), r.contractRun, r.otherRun,
		r.elapsed.Round(time.Second))
	if r.buildFailed {
		s += "; the tests did not build"
	}
	return s
}

// testEvent is one line of `go test -json` (test2json).
type testEvent struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// compatModelSeeds is how many of the bundle's model-based sequences
// (TestModelBundleLifecycle) run under each CLI: `make test` runs them all
// under one CLI; here each CLI gets the first few, about 10 seconds.
const compatModelSeeds = "6"

// modelSeedsEnv limits the model-based sequences, unless the caller chose.
func modelSeedsEnv() string {
	if v, ok := os.LookupEnv("MINTLIFY_MODEL_SEEDS"); ok {
		return "MINTLIFY_MODEL_SEEDS=" + v
	}
	return "MINTLIFY_MODEL_SEEDS=" + compatModelSeeds
}

func runSuite(c devprovider.Binary, cliConfig, pkg, run string, contract contractSet) (result, error) {
	// Eight tests at a time per package: they wait on CLI processes more
	// than they compute (make test's TEST_PARALLEL).
	args := []string{"test", "-json", "-count=1", "-parallel", "8", "-tags", "ecosystem", "-timeout", "30m"}
	if run != "" {
		args = append(args, "-run", run)
	}
	cmd := exec.Command("go", append(args, strings.Fields(pkg)...)...)
	cmd.Env = append(os.Environ(), "TF_ACC=1", "TF_ACC_TERRAFORM_PATH="+c.Path, "TF_CLI_CONFIG_FILE="+cliConfig,
		"CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", modelSeedsEnv())
	if c.OpenTofu {
		// `source = "mintlify/mintlify"` means registry.opentofu.org under OpenTofu.
		cmd.Env = append(cmd.Env, "TF_ACC_PROVIDER_HOST=registry.opentofu.org")
	}
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return result{}, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return result{}, err
	}
	r := collect(c, stdout, contract)
	waitErr := cmd.Wait()
	r.elapsed = time.Since(start)
	if waitErr != nil && r.failed == 0 {
		// go test failed without a failing test: a build or vet error, or a
		// package-level failure such as TestMain exiting.
		r.buildFailed = true
	}
	return r, nil
}

// collect reads test2json events and counts the tests by the last action
// each reported. A test with subtests counts through its subtests only.
func collect(c devprovider.Binary, events io.Reader, contract contractSet) result {
	l := &eventLog{outcomes: map[string]*outcome{}, parents: map[string]bool{}, output: map[string]*strings.Builder{}}
	sc := bufio.NewScanner(events)
	sc.Buffer(make([]byte, 1024*1024), 16*1024*1024)
	for sc.Scan() {
		var ev testEvent
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			fmt.Println(sc.Text())
			continue
		}
		l.add(ev)
	}
	r := result{cli: c}
	for _, key := range l.order {
		pkg, test, _ := strings.Cut(key, " ")
		if action := l.outcomes[key].action; !strings.Contains(test, "/") && action != "skip" {
			if contract.has(pkg, test) {
				r.contractRun++
			} else {
				r.otherRun++
			}
		}
		if l.parents[key] {
			continue
		}
		r.count(key[strings.Index(key, " ")+1:], l.outcomes[key].action, l.outcomes[key].output)
	}
	return r
}

// outcome is a test's last action and its output.
type outcome struct{ action, output string }

// eventLog gathers test2json events by test ("<package> <test>").
type eventLog struct {
	order    []string // tests in the order they ended
	outcomes map[string]*outcome
	parents  map[string]bool // tests with subtests
	output   map[string]*strings.Builder
}

func (l *eventLog) add(ev testEvent) {
	if ev.Test == "" {
		if ev.Action == "output" && (strings.HasPrefix(ev.Output, "FAIL") || strings.Contains(ev.Output, "build failed")) {
			fmt.Print("    " + ev.Output)
		}
		return
	}
	key := ev.Package + " " + ev.Test
	if i := strings.LastIndex(ev.Test, "/"); i > 0 {
		l.parents[ev.Package+" "+ev.Test[:i]] = true
	}
	switch ev.Action {
	case "output":
		if l.output[key] == nil {
			l.output[key] = &strings.Builder{}
		}
		l.output[key].WriteString(ev.Output)
	case "pass", "fail", "skip":
		if l.outcomes[key] == nil {
			l.order = append(l.order, key)
		}
		o := &outcome{action: ev.Action}
		if b := l.output[key]; b != nil {
			o.output = b.String()
		}
		l.outcomes[key] = o
	}
}

func (r *result) count(test, action, out string) {
	r.tests++
	switch action {
	case "pass":
		r.passed++
	case "fail":
		r.failed++
		fmt.Printf("    --- FAIL: %s\n%s", test, indent(out))
	case "skip":
		if strings.Contains(out, versionSkip) {
			r.versionSkips++
			return
		}
		r.otherSkips = append(r.otherSkips, test)
		fmt.Printf("    --- SKIP (only a version gate may skip a test): %s\n%s", test, indent(out))
	}
}

func indent(s string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(s, "\n") {
		if line != "" {
			b.WriteString("        " + line)
		}
	}
	return b.String()
}

func printTable(w io.Writer, rows []result) {
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| CLI | tests | run | passed | failed | skipped by version | other skips | contract tier run | others run | time |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|")
	for _, r := range rows {
		status := ""
		if r.buildFailed {
			status = " (did not build)"
		}
		fmt.Fprintf(w, "| %s%s | %d | %d | %d | %d | %d | %d | %d | %d | %s |\n", r.cli.Name, status, r.tests, r.passed+r.failed,
			r.passed, r.failed, r.versionSkips, len(r.otherSkips), r.contractRun, r.otherRun, r.elapsed.Round(time.Second))
	}
}
