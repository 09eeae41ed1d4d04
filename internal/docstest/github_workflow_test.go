package docstest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// What the GitHub Actions guide's tests need of GitHub Actions: a workflow
// file as far as its runs of terraform go (which events start it, which
// jobs run, their environment and their run: scripts), the expressions the
// example workflows use, and the contexts of the events they answer.

// workflow is a GitHub workflow file, as far as the tests read it.
type workflow struct {
	Name     string            `yaml:"name"`
	On       map[string]any    `yaml:"on"`
	Env      map[string]string `yaml:"env"`
	Defaults struct {
		Run struct {
			WorkingDirectory string `yaml:"working-directory"`
		} `yaml:"run"`
	} `yaml:"defaults"`
	Jobs map[string]workflowJob `yaml:"jobs"`
}

type workflowJob struct {
	If    string            `yaml:"if"`
	Env   map[string]string `yaml:"env"`
	Steps []workflowStep    `yaml:"steps"`
}

type workflowStep struct {
	Uses             string            `yaml:"uses"`
	Run              string            `yaml:"run"`
	If               string            `yaml:"if"`
	Env              map[string]string `yaml:"env"`
	WorkingDirectory string            `yaml:"working-directory"`
}

// readWorkflows reads every .yml file of dir, by file name.
func readWorkflows(t *testing.T, dir string) map[string]workflow {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.yml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no workflows in %s (%v)", dir, err)
	}
	out := map[string]workflow{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var wf workflow
		if err := yaml.Unmarshal(raw, &wf); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[filepath.Base(f)] = wf
	}
	return out
}

// ghEvent is one event as a workflow sees it: its name, the pull request's
// action, and the values of the contexts (github.*, secrets.*, vars.*) its
// expressions may read. A context it does not list fails the test, so a
// workflow cannot read a value the event does not give.
type ghEvent struct {
	name    string
	action  string
	context map[string]string
}

// startsOn is true when the workflow runs on the event: its `on:` names the
// event and, where it filters them, the branch pushed or the pull request's
// action.
func (wf workflow) startsOn(ev ghEvent) bool {
	filter, ok := wf.On[ev.name]
	if !ok {
		return false
	}
	settings, _ := filter.(map[string]any)
	switch ev.name {
	case "push":
		return listHas(settings["branches"], ev.context["github.ref_name"], true)
	case "pull_request":
		return listHas(settings["types"], ev.action, false) ||
			(settings["types"] == nil && slices.Contains([]string{"opened", "synchronize", "reopened"}, ev.action))
	}
	return true
}

// listHas is true when the YAML list l holds s; an absent list holds
// everything when ifAbsent.
func listHas(l any, s string, ifAbsent bool) bool {
	items, ok := l.([]any)
	if !ok {
		return ifAbsent
	}
	for _, item := range items {
		if fmt.Sprint(item) == s {
			return true
		}
	}
	return false
}

// sortedJobs are the workflow's job names in a stable order.
func (wf workflow) sortedJobs() []string {
	names := make([]string, 0, len(wf.Jobs))
	for name := range wf.Jobs {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

var interpolation = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// interpolate replaces each ${{ expression }} of s with its value.
func (ev ghEvent) interpolate(s string) (string, error) {
	var failed error
	out := interpolation.ReplaceAllStringFunc(s, func(m string) string {
		v, err := ev.eval(interpolation.FindStringSubmatch(m)[1])
		if err != nil && failed == nil {
			failed = err
		}
		return v
	})
	return out, failed
}

// condition evaluates an `if:`: empty is true, as in GitHub Actions.
func (ev ghEvent) condition(expr string) (bool, error) {
	if strings.TrimSpace(expr) == "" {
		return true, nil
	}
	v, err := ev.eval(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(expr), "${{"), "}}"))
	return truthy(v), err
}

// withEnv is ev with env's values as the env context (env.NAME), which a
// step's `if:` may read.
func (ev ghEvent) withEnv(env map[string]string) ghEvent {
	ctx := make(map[string]string, len(ev.context)+len(env))
	for k, v := range ev.context {
		ctx[k] = v
	}
	for k, v := range env {
		ctx["env."+k] = v
	}
	return ghEvent{name: ev.name, action: ev.action, context: ctx}
}

func truthy(v string) bool { return v != "" && v != "false" && v != "0" }

func boolString(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// eval evaluates the part of GitHub's expression language that the example
// workflows use: ||, &&, == and != between context values and 'quoted'
// strings. Anything else is an error, so that a workflow that outgrows
// this is noticed rather than misread.
func (ev ghEvent) eval(expr string) (string, error) {
	expr = strings.TrimSpace(expr)
	for _, op := range []string{"||", "&&"} {
		if parts := strings.Split(expr, op); len(parts) > 1 {
			return ev.evalLogical(op, parts)
		}
	}
	for _, op := range []string{"!=", "=="} {
		if left, right, ok := strings.Cut(expr, op); ok {
			l, errL := ev.eval(left)
			r, errR := ev.eval(right)
			if errL != nil || errR != nil {
				return "", fmt.Errorf("%s: %v %v", expr, errL, errR)
			}
			return boolString(strings.EqualFold(l, r) == (op == "==")), nil
		}
	}
	if len(expr) >= 2 && expr[0] == '\'' && expr[len(expr)-1] == '\'' {
		return strings.ReplaceAll(expr[1:len(expr)-1], "''", "'"), nil
	}
	v, ok := ev.context[expr]
	if !ok {
		return "", fmt.Errorf("the %s event of the test gives no value for %q: add it to the event's context, "+
			"or check the workflow reads what this event provides", ev.name, expr)
	}
	return v, nil
}

func (ev ghEvent) evalLogical(op string, parts []string) (string, error) {
	for _, part := range parts {
		v, err := ev.eval(part)
		if err != nil {
			return "", err
		}
		if truthy(v) == (op == "||") {
			return boolString(op == "||"), nil
		}
	}
	return boolString(op == "&&"), nil
}

// shellWords splits a script line into words as the shell does for the
// simple lines of the example workflows: double or single quotes, then
// $NAME and ${NAME} from env outside single quotes. A name env does not
// have fails, as `set -u` would.
func shellWords(line string, env map[string]string) ([]string, error) {
	var words []string
	var missing []string
	expand := func(s string) string {
		return os.Expand(s, func(name string) string {
			v, ok := env[name]
			if !ok {
				missing = append(missing, name)
			}
			return v
		})
	}
	var word strings.Builder
	inWord := false
	for rest := strings.TrimSpace(line); rest != ""; {
		switch c := rest[0]; c {
		case ' ', '\t':
			if inWord {
				words, inWord = append(words, word.String()), false
				word.Reset()
			}
			rest = rest[1:]
		case '"', '\'':
			end := strings.IndexByte(rest[1:], c)
			if end < 0 {
				return nil, fmt.Errorf("unterminated quote in %q", line)
			}
			quoted := rest[1 : end+1]
			if c == '"' {
				quoted = expand(quoted)
			}
			word.WriteString(quoted)
			inWord, rest = true, rest[end+2:]
		default:
			n := strings.IndexAny(rest, " \t\"'")
			if n < 0 {
				n = len(rest)
			}
			word.WriteString(expand(rest[:n]))
			inWord, rest = true, rest[n:]
		}
	}
	if inWord {
		words = append(words, word.String())
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%q reads %s, which the step's environment does not have", line, strings.Join(missing, ", "))
	}
	return words, nil
}
