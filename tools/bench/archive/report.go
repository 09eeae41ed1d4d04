//go:build linux

package main

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/tools/bench/benchreport"
)

// report prints the table and the verdict, and says whether every target
// was met.
func report(results []*result, zips []*zipResult, loadBefore, loadAfter string) bool {
	fmt.Println()
	printProviders(results)
	printZips(zips)
	fmt.Printf("Load average (1, 5, 15 min): %s before, %s after.\n", loadBefore, loadAfter)
	if cores := runtime.NumCPU(); max(minuteLoad(loadBefore), minuteLoad(loadAfter)) > float64(cores) {
		fmt.Printf("The machine was busy (a load over its %d cores): the provider's work is about one and a half times\n"+
			"  MD5 alone's, spread over more cores, so competing work slows it more and its ratios rise.\n", cores)
	}
	fmt.Println()

	v := benchreport.NewVerdict(os.Stdout)
	for _, r := range results {
		v.Check(r.floorRatio() <= maxFloorRatio, "%s: provider at most %.2f× the floor (curl | tee | %s): %.2f×",
			formatSize(r.size), maxFloorRatio, r.floorHasher(), r.floorRatio())
		v.Check(r.byHandRatio() < 1, "%s: provider faster than curl -o with sha256sum, md5sum and tar -tzf: %.2f×",
			formatSize(r.size), r.byHandRatio())
		v.Check(r.peak > 0 && r.peak < benchreport.MaxProviderPeakRSS, "%s: provider peak RSS under %d MiB: %.1f MiB",
			formatSize(r.size), benchreport.MaxProviderPeakRSS/mib, float64(r.peak)/mib)
	}
	checkZips(zips, v)
	return !v.Failed()
}

// printProviders prints the table of the provider's downloads.
func printProviders(results []*result) {
	if len(results) == 0 {
		return
	}
	fmt.Println("Bundle archive download over loopback, medians: the floor (curl | tee | md5sum or sha256sum, the slower),")
	fmt.Println("MD5 alone, curl -o and terraform apply of mintlify_static_export_archive")
	fmt.Printf("%-9s %12s %14s %8s %10s %9s %9s %8s %8s %15s %7s %18s %12s\n", "archive", "|tee|md5sum", "|tee|sha256sum",
		"vs floor", "MD5 alone", "curl -o", "provider", "vs MD5", "vs curl", "curl + checks", "ratio", "provider peak RSS",
		"whole apply")
	for _, r := range results {
		fmt.Printf("%-9s %12s %14s %7.2f× %10s %9s %9s %7.2f× %7.2f× %15s %6.2f× %14.1f MiB %12s\n", formatSize(r.size),
			seconds(benchreport.Median(r.pipeMD5)), seconds(benchreport.Median(r.pipeSHA)), r.floorRatio(),
			seconds(benchreport.Median(r.md5)), seconds(benchreport.Median(r.curl)), seconds(benchreport.Median(r.provider)),
			r.md5Ratio(), r.curlRatio(), seconds(benchreport.Median(r.byHand)), r.byHandRatio(), float64(r.peak)/mib,
			seconds(benchreport.Median(r.apply)))
	}
	fmt.Println("From the download request reaching the fake to the end: the pipeline's or curl's exit; the last byte hashed")
	fmt.Println("  by a download that computes the archive's MD5 and writes nothing (MD5 alone); the provider's rename of the")
	fmt.Println("  verified archive into place. whole apply: the `terraform apply` command.")
	fmt.Println("vs floor (judged): the provider against the slower pipeline, which downloads, writes and hashes the same")
	fmt.Println("  bytes, the work the provider cannot skip. vs MD5 and vs curl: for information; neither writes and hashes.")
	fmt.Println("curl + checks: curl -o, then what is done by hand to get the same facts: sha256sum, md5sum, tar -tzf.")
}

// floor is the median of the slower pipeline, and its hasher.
func (r *result) floor() ([]time.Duration, string) {
	if benchreport.Median(r.pipeSHA) >= benchreport.Median(r.pipeMD5) {
		return r.pipeSHA, "sha256sum"
	}
	return r.pipeMD5, "md5sum"
}

func (r *result) floorRatio() float64 {
	ds, _ := r.floor()
	return r.ratioTo(ds)
}

func (r *result) floorHasher() string {
	_, hasher := r.floor()
	return hasher
}

func (r *result) md5Ratio() float64 { return r.ratioTo(r.md5) }

func (r *result) curlRatio() float64 { return r.ratioTo(r.curl) }

func (r *result) byHandRatio() float64 { return r.ratioTo(r.byHand) }

// ratioTo is the provider's median over the median of ds.
func (r *result) ratioTo(ds []time.Duration) float64 {
	return benchreport.Median(r.provider).Seconds() / benchreport.Median(ds).Seconds()
}

// minuteLoad is the first figure of a load average as loadAverage gives
// it, or 0.
func minuteLoad(load string) float64 {
	first, _, _ := strings.Cut(load, " ")
	f, _ := strconv.ParseFloat(first, 64)
	return f
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }

func formatSize(n int64) string {
	if n >= 1024*mib {
		return fmt.Sprintf("%g GiB", float64(n)/(1024*mib))
	}
	return fmt.Sprintf("%g MiB", float64(n)/mib)
}
