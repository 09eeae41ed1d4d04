package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakeapi"
)

// contractFlag names the flag that chooses the static export contracts the
// sandbox's stand-in serves.
const contractFlag = "-contract"

// defaultContract is what the sandbox serves without the flag: today's
// domain-scoped contract, the one Mintlify serves until it announces the
// switch, so that what works in the sandbox works against the API.
const defaultContract = "today"

// sandboxContract is one value of -contract: the contracts served, and
// what the sandbox says of them.
type sandboxContract struct {
	served fakeapi.Contracts
	says   string
}

// contracts are the values of -contract, in the order the sandbox names them.
var contracts = []struct {
	name string
	sandboxContract
}{
	{"today", sandboxContract{fakeapi.ServeToday, "today's domain-scoped contract only (a bundle with domain); " +
		"a bundle without domain is refused as not served, as by Mintlify today"}},
	{"both", sandboxContract{fakeapi.ServeBoth, "both contracts, as while Mintlify moves: a bundle with domain " +
		"and one without (project-scoped, a ZIP link), so the move guide's steps can be tried"}},
	{"next", sandboxContract{fakeapi.ServeNext, "the project-scoped contract only, as once the domain-scoped one " +
		"is retired: its calls answer 404, so a bundle with domain shows the retirement"}},
}

// contractNames are the values of -contract, as the flag's usage and its
// refusal name them.
func contractNames() string {
	return fmt.Sprintf("%s, %s or %s", contracts[0].name, contracts[1].name, contracts[2].name)
}

// contractFor is the named -contract, or an error naming the flag and its
// three values.
func contractFor(name string) (sandboxContract, error) {
	for _, c := range contracts {
		if c.name == name {
			return c.sandboxContract, nil
		}
	}
	return sandboxContract{}, fmt.Errorf("%s %q: use %s (the static export contracts the stand-in serves)",
		contractFlag, name, contractNames())
}

// option is the stand-in's option serving c; a project-scoped export takes
// about 5 seconds, as a domain-scoped one does (devprovider.StartAPI).
func (c sandboxContract) option() fakeapi.Option {
	return fakeapi.WithStaticExport(fakeapi.StaticExportOptions{Next: &fakeapi.NextExport{
		Contracts: c.served,
		Plan: func(fakeapi.ProjectStartRequest) fakeapi.JobPlan {
			return fakeapi.JobPlan{QueueFor: time.Second, RunFor: 4 * time.Second, Pages: 128}
		},
	}})
}

// printContract says which static export contracts the stand-in serves,
// and names the other values of -contract.
func printContract(out io.Writer, name string) {
	c, _ := contractFor(name)
	_, _ = fmt.Fprintf(out, "\n  Static exports (-contract %s; also %s): %s.\n", name, otherContracts(name), c.says)
}

// otherContracts names the values of -contract other than name.
func otherContracts(name string) string {
	var others []string
	for _, c := range contracts {
		if c.name != name {
			others = append(others, c.name)
		}
	}
	return strings.Join(others, ", ")
}
