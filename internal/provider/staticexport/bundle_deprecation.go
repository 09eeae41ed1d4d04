package staticexport

import "fmt"

// domainRetirementAnnounced turns on the deprecation of the arguments of
// the domain-scoped static export (`domain`, `version`, `paths`, on the
// bundle: no other type has them). Mintlify has not announced when it
// retires that contract (API.md); on the day it does, set this to true:
// every plan that sets one of them then warns, naming it and the move
// guide. It is a variable, not a constant, only so that a test can turn it
// on (bundle_deprecation_test.go).
var domainRetirementAnnounced = false

// domainArgumentDeprecation is the DeprecationMessage of the domain-scoped
// argument name: empty, so no warning, until the retirement is announced.
func domainArgumentDeprecation(name string) string {
	if !domainRetirementAnnounced {
		return ""
	}
	return fmt.Sprintf("`%s` belongs to the domain-scoped static export, which Mintlify is retiring. To keep "+
		"exporting, %s; a new export replaces this one once. See %s.", name, moveToProject, moveGuide)
}
