//go:build unix

package archivefile_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"time"
)

// The listings: each extractor lists the archive, and the list must be
// the check's entries (as the oracle reads them, which the check's count
// must match), each once; a reader of the other format must refuse it.
// An extractor that would read another format, or another entry, lists
// otherwise.

// lister lists an archive's entry names, as an extractor reads them.
type lister struct {
	name string
	args []string                  // the command; ARCHIVE is replaced
	pick func(out string) []string // the names in its output; nil: one a line
	// masked: it prints each byte above 0x7f as "?" (BusyBox, whatever
	// the locale), so the names are compared so masked.
	masked bool
}

// zipListers are the ZIP extractors' listings.
func zipListers() []lister {
	return []lister{
		{name: "unzip -Z1", args: []string{"unzip", "-Z1", "ARCHIVE"}},
		{name: "bsdtar -tf", args: []string{"bsdtar", "-tf", "ARCHIVE"}},
		{name: "7zz l -slt", args: []string{"7zz", "l", "-slt", "ARCHIVE"}, pick: sevenZipPaths},
		{name: "python3 -m zipfile -l", args: []string{"python3", "-m", "zipfile", "-l", "ARCHIVE"}, pick: tableNames(pythonZipRow)},
		{name: "busybox unzip -l", args: []string{"busybox", "unzip", "-l", "ARCHIVE"}, pick: tableNames(busyboxZipRow), masked: true},
	}
}

// tarListers are the tar.gz extractors' listings.
func tarListers() []lister {
	return []lister{
		{name: "tar -tzf", args: []string{"tar", "-tzf", "ARCHIVE"}},
		{name: "bsdtar -tf", args: []string{"bsdtar", "-tf", "ARCHIVE"}},
		{name: "busybox tar -tzf", args: []string{"busybox", "tar", "-tzf", "ARCHIVE"}},
		{name: "python3 -m tarfile -l", args: []string{"python3", "-m", "tarfile", "-l", "ARCHIVE"}, pick: pythonTarNames},
	}
}

// pythonTarNames reads python3 -m tarfile -l: a name a line, each
// followed by one space.
func pythonTarNames(out string) []string {
	var names []string
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		names = append(names, strings.TrimSuffix(line, " "))
	}
	return names
}

// mask spells a name as a listing that prints bytes above 0x7f as "?".
func mask(name string) string {
	b := []byte(name)
	for i, c := range b {
		if c >= 0x80 {
			b[i] = '?'
		}
	}
	return string(b)
}

// foreignListers are the listings of the other format's readers, which
// must refuse the archive: the ZIP readers for a tar.gz, the tar readers
// for a ZIP.
func foreignListers(zip bool) []lister {
	if zip {
		return []lister{
			{name: "tar -tf", args: []string{"tar", "-tf", "ARCHIVE"}},
			{name: "python3 -m tarfile -l", args: []string{"python3", "-m", "tarfile", "-l", "ARCHIVE"}},
		}
	}
	return []lister{
		{name: "unzip -Z1", args: []string{"unzip", "-Z1", "ARCHIVE"}},
		{name: "python3 -m zipfile -l", args: []string{"python3", "-m", "zipfile", "-l", "ARCHIVE"}},
		{name: "busybox unzip -l", args: []string{"busybox", "unzip", "-l", "ARCHIVE"}},
	}
}

// run lists archive; a failure to run at all (not found) is reported
// apart from the command's own refusal.
func (l lister) run(archive string) (names []string, refused bool, err error) {
	if _, err := exec.LookPath(l.args[0]); err != nil {
		return nil, false, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var argv []string
	for _, a := range l.args[1:] {
		argv = append(argv, strings.ReplaceAll(a, "ARCHIVE", archive))
	}
	out, err := exec.CommandContext(ctx, l.args[0], argv...).Output()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return nil, true, nil
	}
	if err != nil {
		return nil, false, err
	}
	if l.pick != nil {
		return l.pick(string(out)), false, nil
	}
	return strings.Split(strings.TrimSuffix(string(out), "\n"), "\n"), false, nil
}

// sevenZipPaths reads the paths of 7zz l -slt: "Path = " lines after the
// line of dashes (before it, the archive's own).
func sevenZipPaths(out string) []string {
	_, items, _ := strings.Cut(out, "\n----------\n")
	var names []string
	sc := bufio.NewScanner(strings.NewReader(items))
	for sc.Scan() {
		if p, ok := strings.CutPrefix(sc.Text(), "Path = "); ok {
			names = append(names, p)
		}
	}
	return names
}

var (
	pythonZipRow  = regexp.MustCompile(`^(.*?)\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+\d+$`)
	busyboxZipRow = regexp.MustCompile(`^\s*\d+\s+\d\d-\d\d-\d{4}\s+\d\d:\d\d\s+(.*)$`)
)

// tableNames reads the names of a table's rows that row matches.
func tableNames(row *regexp.Regexp) func(string) []string {
	return func(out string) []string {
		var names []string
		for _, line := range strings.Split(out, "\n") {
			if m := row.FindStringSubmatch(line); m != nil && !strings.HasPrefix(line, "File Name") {
				names = append(names, m[1])
			}
		}
		return names
	}
}

// listed is a listing as the oracle spells its entries: without a
// leading ./ or a trailing /, the root left out, sorted.
func listed(names []string) []string {
	var out []string
	for _, n := range names {
		n = strings.TrimSuffix(strings.TrimPrefix(n, "./"), "/")
		if n != "" && n != "." {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// listProblems lists archive with each lister and compares with want; the
// foreign listers must refuse it.
func listProblems(archive string, zip bool, want []oEntry) []string {
	var expect []string
	for _, e := range want {
		expect = append(expect, e.path)
	}
	slices.Sort(expect)
	var problems []string
	listers := tarListers()
	if zip {
		listers = zipListers()
	}
	for _, l := range listers {
		names, refused, err := l.run(archive)
		want := expect
		if l.masked {
			want = nil
			for _, n := range expect {
				want = append(want, mask(n))
			}
			slices.Sort(want)
		}
		switch got := listed(names); {
		case err != nil:
			problems = append(problems, l.name+": "+err.Error())
		case refused:
			problems = append(problems, l.name+": it fails to list the archive")
		case !slices.Equal(got, want):
			problems = append(problems, fmt.Sprintf("%s lists %q, the check %q", l.name, got, want))
		}
	}
	for _, l := range foreignListers(zip) {
		if names, refused, err := l.run(archive); err == nil && !refused && len(listed(names)) > 0 {
			problems = append(problems, fmt.Sprintf("%s reads it in the other format, listing %q", l.name, listed(names)))
		}
	}
	return problems
}
