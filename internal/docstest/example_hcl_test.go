package docstest

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// exampleConfig is what the checks of an example need to know about it,
// read from its syntax alone (no provider schema).
type exampleConfig struct {
	required map[string]string // required_providers: local name -> source ("" when it has none)
	used     map[string]string // provider local name -> the first block that uses it
	declared map[string]bool   // what references may name: var.x, local.x, type.name, data.type.name, ...
	refs     []hcl.Traversal   // every reference in an expression
	// requiredVersion is the terraform block's `required_version`, "" when
	// it has none.
	requiredVersion string
}

// builtinProvider is the provider built into Terraform and OpenTofu
// (terraform_data, terraform_remote_state): never named in required_providers.
const builtinProvider = "terraform"

func analyseExample(body *hclsyntax.Body) exampleConfig {
	c := exampleConfig{required: map[string]string{}, used: map[string]string{}, declared: map[string]bool{}}
	for _, block := range body.Blocks {
		c.addBlock(block)
	}
	return c
}

func (c *exampleConfig) addBlock(block *hclsyntax.Block) {
	labels := block.Labels
	switch block.Type {
	case "terraform":
		c.addRequiredProviders(block.Body)
		if attr, ok := block.Body.Attributes["required_version"]; ok {
			if v, diags := attr.Expr.Value(nil); !diags.HasErrors() && v.Type() == cty.String && v.IsKnown() && !v.IsNull() {
				c.requiredVersion = v.AsString()
			}
		}
		return // the terraform block holds no references
	case "resource", "data", "ephemeral", "action", "list":
		address := labels[0] + "." + labels[1]
		if block.Type != "resource" {
			address = block.Type + "." + address
		}
		c.declared[address] = true
		c.use(providerOf(labels[0], block.Body), block.Type+" "+strings.Join(labels, "."))
	case "provider":
		c.use(labels[0], "provider "+labels[0])
	case "variable":
		c.declared["var."+labels[0]] = true
		return // `type = string` is a keyword; a validation names the variable itself
	case "locals":
		for name := range block.Body.Attributes {
			c.declared["local."+name] = true
		}
	case "module":
		c.declared["module."+labels[0]] = true
	case "check":
		for _, nested := range block.Body.Blocks {
			if nested.Type == "data" {
				c.addBlock(nested)
			}
		}
	case "moved", "removed":
		return // they name addresses that no longer exist
	}
	c.refs = append(c.refs, references(block.Body, nil)...)
}

func (c *exampleConfig) use(provider, by string) {
	if _, seen := c.used[provider]; !seen {
		c.used[provider] = by
	}
}

// addRequiredProviders reads `name = { source = "..." }` entries.
func (c *exampleConfig) addRequiredProviders(body *hclsyntax.Body) {
	for _, block := range body.Blocks {
		if block.Type != "required_providers" {
			continue
		}
		for name, attr := range block.Body.Attributes {
			c.required[name] = ""
			v, diags := attr.Expr.Value(nil)
			if diags.HasErrors() || !v.Type().IsObjectType() || !v.Type().HasAttribute("source") {
				continue
			}
			if source := v.GetAttr("source"); source.Type() == cty.String && source.IsKnown() && !source.IsNull() {
				c.required[name] = source.AsString()
			}
		}
	}
}

// providerOf is the provider local name of a resource type: its `provider`
// argument's, or else the type's prefix up to the first underscore.
func providerOf(resourceType string, body *hclsyntax.Body) string {
	if attr, ok := body.Attributes["provider"]; ok {
		if trav, diags := hcl.AbsTraversalForExpr(attr.Expr); !diags.HasErrors() {
			return trav.RootName()
		}
	}
	name, _, _ := strings.Cut(resourceType, "_")
	return name
}

// references returns the references of every expression in body, except
// those that are names rather than references (lifecycle.ignore_changes,
// provider, providers, the events of an action_trigger) and the iterators
// of dynamic blocks.
func references(body *hclsyntax.Body, iterators []string) []hcl.Traversal {
	return referencesIn(body, iterators, false)
}

// referencesIn is references for the body of an action_trigger block when
// inActionTrigger is set.
func referencesIn(body *hclsyntax.Body, iterators []string, inActionTrigger bool) []hcl.Traversal {
	var refs []hcl.Traversal
	for name, attr := range body.Attributes {
		if name == "ignore_changes" || name == "provider" || name == "providers" {
			continue
		}
		if name == "events" && inActionTrigger {
			continue // after_create, after_update: keywords
		}
		for _, trav := range attr.Expr.Variables() {
			if !slices.Contains(iterators, trav.RootName()) {
				refs = append(refs, trav)
			}
		}
	}
	for _, block := range body.Blocks {
		inner := iterators
		if block.Type == "dynamic" && len(block.Labels) == 1 {
			inner = append(slices.Clone(iterators), block.Labels[0])
			if it, ok := block.Body.Attributes["iterator"]; ok {
				inner = append(inner, hcl.ExprAsKeyword(it.Expr))
			}
		}
		refs = append(refs, referencesIn(block.Body, inner, block.Type == "action_trigger")...)
	}
	return refs
}

// referenceAddress is the object a reference names (var.x, aws_s3_bucket.b,
// data.t.n, ...), or "" for the ones that name no declaration.
func referenceAddress(trav hcl.Traversal) string {
	attr := func(i int) string {
		if i < len(trav) {
			if a, ok := trav[i].(hcl.TraverseAttr); ok {
				return a.Name
			}
		}
		return "?"
	}
	switch root := trav.RootName(); root {
	case "each", "count", "self", "path", "terraform":
		return ""
	case "data", "ephemeral", "action", "list":
		return root + "." + attr(1) + "." + attr(2)
	default: // var, local, module and managed resources
		return root + "." + attr(1)
	}
}

// problems lists what is wrong with the example's providers and, when
// checkRefs is set, its references, each as a sentence.
func (c exampleConfig) problems(checkRefs bool) []string {
	var out []string
	if source := c.required["mintlify"]; source != "mintlify/mintlify" {
		out = append(out, fmt.Sprintf(`required_providers must name mintlify = { source = "mintlify/mintlify" } (found %q)`, source))
	}
	for _, name := range slices.Sorted(maps.Keys(c.used)) {
		if name != builtinProvider && c.required[name] == "" {
			out = append(out, fmt.Sprintf("%s uses the provider %q, which required_providers does not name with a source", c.used[name], name))
		}
	}
	if !checkRefs {
		return out
	}
	for _, trav := range c.refs {
		if address := referenceAddress(trav); address != "" && !c.declared[address] {
			r := trav.SourceRange()
			out = append(out, fmt.Sprintf("line %d refers to %s, which the example does not declare", r.Start.Line, address))
		}
	}
	return out
}

// needsOnly reports whether the example needs no provider but this one, the
// built-in one and those named.
func (c exampleConfig) needsOnly(others ...string) bool {
	for _, names := range []map[string]string{c.required, c.used} {
		for name := range names {
			if name != "mintlify" && name != builtinProvider && !slices.Contains(others, name) {
				return false
			}
		}
	}
	return true
}

// runsWithThisProviderAlone reports whether the example needs no provider
// but this one and the built-in one, so that `terraform init` can install
// everything it needs from the local mirror.
func (c exampleConfig) runsWithThisProviderAlone() bool { return c.needsOnly() }
