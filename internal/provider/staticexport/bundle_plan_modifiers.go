package staticexport

import (
	"github.com/mintlify/terraform-provider-mintlify/internal/provider/core"
)

var replaceExportUnlessImported = core.ReplaceUnlessImported{
	Marker:      "store_link",
	Description: "Changing this value starts a new export, except on the first plan after an import.",
}
