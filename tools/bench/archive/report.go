//go:build linux

package main

import (
	"crypto/md5" //nolint:gosec // measured, not used for security
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/tools/bench/benchreport"
)

// hashRates measures, for context, how fast one core of this machine
// computes the two hashes every download needs, in MiB/s.
func hashRates() (md5Rate, shaRate float64) {
	buf := make([]byte, 256*mib)
	rate := func(w io.Writer) float64 {
		began := time.Now()
		_, _ = w.Write(buf)
		return float64(len(buf)) / mib / time.Since(began).Seconds()
	}
	return rate(md5.New()), rate(sha256.New()) //nolint:gosec
}

// report prints the table and the verdict, and says whether every target
// was met.
func report(results []*result, md5Rate, shaRate float64) bool {
	fmt.Println()
	fmt.Println("Bundle archive download over loopback, medians: curl -o vs terraform apply of mintlify_static_export_archive")
	fmt.Printf("%-9s %9s %9s %7s %15s %7s %18s %12s %10s\n", "archive", "curl -o", "provider", "ratio",
		"curl + checks", "ratio", "provider peak RSS", "whole apply", "MD5 alone")
	for _, r := range results {
		fmt.Printf("%-9s %9s %9s %6.2f× %15s %6.2f× %14.1f MiB %12s %10s\n", formatSize(r.size),
			seconds(benchreport.Median(r.curl)), seconds(benchreport.Median(r.provider)), r.ratio(),
			seconds(benchreport.Median(r.byHand)), r.byHandRatio(), float64(r.peak)/mib,
			seconds(benchreport.Median(r.apply)), seconds(time.Duration(float64(r.size)/mib/md5Rate*float64(time.Second))))
	}
	fmt.Println("curl -o, provider: from the download request reaching the fake to the complete file (curl's exit; the")
	fmt.Println("  provider's rename of the verified archive into place). whole apply: the `terraform apply` command.")
	fmt.Println("curl + checks: curl -o, then what is done by hand to get the same facts: sha256sum, md5sum, tar -tzf.")
	fmt.Printf("MD5 alone: the archive's MD5 on one core of this machine, at the best rate measured before and after the\n"+
		"  downloads (%.0f MiB/s; SHA-256 %.0f MiB/s). The provider computes MD5 and SHA-256 while it writes and\n"+
		"  checks the archive, side by side; curl computes neither, so the provider cannot be faster than MD5 alone.\n\n",
		md5Rate, shaRate)

	v := benchreport.NewVerdict(os.Stdout)
	for _, r := range results {
		v.Check(r.ratio() <= maxRatio, "%s: provider at most %.1f× curl -o: %.2f×", formatSize(r.size), maxRatio, r.ratio())
		v.Check(r.byHandRatio() < 1, "%s: provider faster than curl -o with sha256sum, md5sum and tar -tzf: %.2f×",
			formatSize(r.size), r.byHandRatio())
		v.Check(r.peak > 0 && r.peak < benchreport.MaxProviderPeakRSS, "%s: provider peak RSS under %d MiB: %.1f MiB",
			formatSize(r.size), benchreport.MaxProviderPeakRSS/mib, float64(r.peak)/mib)
	}
	return !v.Failed()
}

func (r *result) ratio() float64 {
	return benchreport.Median(r.provider).Seconds() / benchreport.Median(r.curl).Seconds()
}

func (r *result) byHandRatio() float64 {
	return benchreport.Median(r.provider).Seconds() / benchreport.Median(r.byHand).Seconds()
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }

func formatSize(n int64) string {
	if n >= 1024*mib {
		return fmt.Sprintf("%g GiB", float64(n)/(1024*mib))
	}
	return fmt.Sprintf("%g MiB", float64(n)/mib)
}
