package providertest

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// ExpectEachRefusedInOnePlan plans one configuration, head (the provider
// blocks) followed by each refusal's Config, a block of its own, with one
// terraform plan: where ExpectRefusedAtPlan runs a plan per refusal. The
// plan must fail with each refusal's phrases (Want, separated by "|", see
// ExpectError) in an error that points into that refusal's block, and with
// no error that points anywhere else; then no request may have reached the
// API. Terraform reports the errors of every block, but plans nothing once
// validation has failed: the refusals of one call fail at the same stage
// (all at validation, or all when the plan is made).
func ExpectEachRefusedInOnePlan(t *testing.T, env *Env, head string, refusals []Refusal) {
	t.Helper()
	expectEachInOneRun(t, env, head, refusals, "plan", "-input=false", "-no-color")
	expectNoRequest(t, env)
}

// ExpectEachFailsInOneApply is ExpectEachRefusedInOnePlan for failures of
// an apply: one terraform apply of head and every failure's Config, a block
// of its own, must fail with each failure's phrases in an error that points
// into its block, and with no other error. Terraform applies the blocks
// side by side and reports each one's error.
func ExpectEachFailsInOneApply(t *testing.T, env *Env, head string, failures []Refusal) {
	t.Helper()
	expectEachInOneRun(t, env, head, failures, "apply", "-auto-approve", "-input=false", "-no-color")
}

// expectEachInOneRun runs one terraform command (args) on head followed by
// each refusal's block, and checks that it fails with each refusal's
// phrases in an error that points into its block, and with no other error.
func expectEachInOneRun(t *testing.T, env *Env, head string, refusals []Refusal, args ...string) {
	t.Helper()
	config := requiredProviders + head
	var starts []int
	for _, r := range refusals {
		starts = append(starts, strings.Count(config, "\n")+1)
		config += "\n" + r.Config + "\n"
	}
	starts = append(starts, strings.Count(config, "\n")+2)
	cli := env.CLI(t)
	cli.WriteFile("main.tf", config)
	res := cli.Run(args...)
	if res.Exit == 0 {
		t.Fatalf("terraform %s succeeded, want it to fail:\n%s", args[0], Indent(res.Output))
	}
	found, stray := byBlock(errorDiagnostics(res.Output), starts)
	for _, d := range stray {
		t.Errorf("an error that points at none of the blocks:\n%s", Indent(d))
	}
	for i, r := range refusals {
		want := ExpectError(strings.Split(r.Want, "|")...)
		matched := false
		for _, d := range found[i] {
			matched = matched || want.MatchString(d)
		}
		if !matched {
			t.Errorf("no error of block %d (line %d on) says %q; its errors:\n%s\nthe block:\n%s",
				i, starts[i], r.Want, Indent(strings.Join(found[i], "\n")), Indent(r.Config))
		}
	}
	if t.Failed() {
		t.Logf("the configuration:\n%s\nthe output of terraform %s:\n%s", Indent(numbered(config)), args[0], Indent(res.Output))
	}
}

// byBlock sorts diagnostics by the block of main.tf they point at: block
// i runs from line starts[i] to the line before starts[i+1]. stray are
// those that point at none.
func byBlock(diags []string, starts []int) (found [][]string, stray []string) {
	found = make([][]string, len(starts)-1)
	for _, d := range diags {
		i := -1
		if m := diagnosticLine.FindStringSubmatch(d); m != nil {
			line, _ := strconv.Atoi(m[1])
			for j := range found {
				if line >= starts[j] && line < starts[j+1] {
					i = j
				}
			}
		}
		if i < 0 {
			stray = append(stray, d)
			continue
		}
		found[i] = append(found[i], d)
	}
	return found, stray
}

// diagnosticLine is where a diagnostic points in the configuration.
var diagnosticLine = regexp.MustCompile(`on main\.tf line (\d+)`)

// errorDiagnostics splits a command's output into its error diagnostics,
// each without the frame Terraform draws around it.
func errorDiagnostics(output string) []string {
	var diags []string
	var cur []string
	inError := false
	flush := func() {
		if inError {
			diags = append(diags, strings.Join(cur, "\n"))
		}
		cur, inError = nil, false
	}
	for _, line := range strings.Split(output, "\n") {
		text := strings.TrimPrefix(strings.TrimPrefix(line, "│"), " ")
		switch {
		case strings.HasPrefix(line, "╷"), strings.HasPrefix(line, "╵"):
			flush()
			continue
		case strings.HasPrefix(text, "Error: "):
			flush()
			inError = true
		case strings.HasPrefix(text, "Warning: "):
			flush()
		}
		cur = append(cur, text)
	}
	flush()
	return diags
}

// numbered prefixes each line of s with its number.
func numbered(s string) string {
	lines := strings.Split(s, "\n")
	for i := range lines {
		lines[i] = strconv.Itoa(i+1) + ": " + lines[i]
	}
	return strings.Join(lines, "\n")
}
