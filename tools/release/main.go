// Command release rehearses a release of the provider as its users will
// install it; it is the program behind `make test-release`. goreleaser
// builds version 0.1.0 from the project's own .goreleaser.yml (narrowed to
// this platform) twice, in two temporary clones tagged v0.1.0, signed by a
// throwaway GPG key, and the two builds must be byte-identical. The
// archive's SBOM must list the modules its binary links at the versions of
// go.mod and go.sum, and SHA256SUMS must cover it. A loopback
// HTTPS registry then serves the release, and under each CLI given `init`
// installs and verifies it, `providers lock` agrees with the lock file it
// wrote, examples/quickstart applies against the fake API, a second `init`
// installs from the lock file, and a tampered zip, a wrong signature and an
// unknown key each make `init` fail. It prints what it checked and how long
// each check took. Nothing is pushed and the checkout is not touched: the
// tag lives in the clones, which are removed with everything else.
//
//	go run ./tools/release -goreleaser PATH -cyclonedx-gomod PATH CLI...
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"time"
)

func main() {
	goreleaser := flag.String("goreleaser", "goreleaser", "the goreleaser executable")
	cyclonedxGomod := flag.String("cyclonedx-gomod", "cyclonedx-gomod", "the cyclonedx-gomod executable, which writes the SBOMs")
	keep := flag.Bool("keep", false, "keep the temporary directory (clones, builds, keys, working directories) and print its path")
	noIsolation := flag.Bool("no-isolation", false, "run in this network namespace, without proving that nothing is fetched")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: release [-goreleaser PATH] [-cyclonedx-gomod PATH] [-keep] [-no-isolation] CLI...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	network := "NOT isolated (-no-isolation)"
	if !*noIsolation {
		code, ran, why := isolate()
		if ran {
			os.Exit(code)
		}
		network = why
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	err := run(ctx, options{goreleaser: *goreleaser, cyclonedxGomod: *cyclonedxGomod, clis: flag.Args(), keep: *keep, network: network})
	if err != nil {
		// The details are printed under the FAIL line above.
		first, _, _ := strings.Cut(err.Error(), "\n")
		fmt.Fprintf(os.Stderr, "\nrelease rehearsal FAILED after %s: %s\n", since(start), first)
		os.Exit(1)
	}
	fmt.Printf("\nrelease rehearsal passed in %s\n", since(start))
}

type options struct {
	goreleaser     string
	cyclonedxGomod string
	clis           []string
	keep           bool
	// network says where the rehearsal runs: isolated or not, and why.
	network string
}

func run(ctx context.Context, opts options) error {
	r, err := newRehearsal(ctx, opts)
	if err != nil {
		return err
	}
	defer r.close()

	fmt.Printf("==> Release %s of commit %s, for %s\n", r.version, r.commit[:12], r.platform())
	fmt.Printf("  network: %s\n", opts.network)
	if r.dirty {
		fmt.Println("  note: the checkout has uncommitted changes; a release builds the commit, and so does this rehearsal")
	}
	if err := r.prepare(ctx); err != nil {
		return err
	}

	fmt.Println("\n==> Building the release twice with goreleaser")
	first, err := r.build(ctx, "build 1", "a")
	if err != nil {
		return err
	}
	second, err := r.build(ctx, "build 2", "second/build")
	if err != nil {
		return err
	}
	if err := step("byte-identical builds", func() (string, error) { return compareBuilds(first, second) }); err != nil {
		return err
	}
	if err := step("provider binary", func() (string, error) { return r.inspectBinary(ctx, first, second) }); err != nil {
		return err
	}
	if err := step("SBOM", func() (string, error) { return r.checkSBOM(ctx, first) }); err != nil {
		return err
	}

	fmt.Println("\n==> Serving the release from a loopback HTTPS registry")
	if err := r.serve(ctx, first); err != nil {
		return err
	}

	var results []cliResult
	for _, c := range r.clis {
		results = append(results, r.rehearseInstall(ctx, c))
	}
	printTable(results)
	var failed []string
	for _, res := range results {
		if res.failed > 0 {
			failed = append(failed, res.cli.Name)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("installing the release failed under %s (see FAIL above)", strings.Join(failed, ", "))
	}
	return ctx.Err()
}

// step runs check and prints one line: what was checked, what was found and
// how long it took; on failure, the error indented under it.
func step(what string, check func() (string, error)) error {
	start := time.Now()
	found, err := check()
	if err != nil {
		fmt.Printf("  FAIL  %s (%s)\n%s", what, since(start), indent(err.Error(), "        "))
		return fmt.Errorf("%s: %w", what, err)
	}
	if found != "" {
		what += ": " + found
	}
	fmt.Printf("  ok    %s (%s)\n", what, since(start))
	return nil
}

func since(t time.Time) time.Duration {
	d := time.Since(t)
	if d < 10*time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Second)
}

// indent prefixes every line of s and ends it with a newline.
func indent(s, prefix string) string {
	s = strings.TrimRight(s, "\n")
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix) + "\n"
}

// tail is the last lines of a command's output, for an error message.
func tail(out string, lines int) string {
	all := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(all) > lines {
		all = append([]string{"..."}, all[len(all)-lines:]...)
	}
	return strings.Join(all, "\n")
}
