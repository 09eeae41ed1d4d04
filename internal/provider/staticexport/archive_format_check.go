package staticexport

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/internal/archivefile"
)

// The archive's format is the job's contract's (promisedFormat): a ZIP for
// a project-scoped job (`project_id` set), a tar.gz for a domain-scoped one.
// An `output_path` whose extension says the other format is warned about
// at plan: the file would be written all the same, under a name that
// `tar`, a browser or an object store's content type reads wrong. Other
// extensions, or none, pass silently.

var _ resource.ResourceWithValidateConfig = (*staticExportArchiveResource)(nil)

// formatExtensions are the extensions that name each format, with the one
// to suggest first.
var formatExtensions = map[string][]string{
	archivefile.FormatTarGz: {".tar.gz", ".tgz"},
	archivefile.FormatZip:   {".zip"},
}

// ValidateConfig warns when `output_path`'s extension contradicts the format
// of the job's contract; unknown values wait for the plan that knows them.
func (r *staticExportArchiveResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var outputPath, projectID types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("output_path"), &outputPath)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, pathProjectID, &projectID)...)
	if resp.Diagnostics.HasError() || !known(outputPath) || projectID.IsUnknown() {
		return
	}
	format := archiveAttempt{projectID: projectID.ValueString()}.promisedFormat()
	if detail := outputPathExtensionProblem(outputPath.ValueString(), format); detail != "" {
		resp.Diagnostics.AddAttributeWarning(path.Root("output_path"), "Output Path Names Another Format", detail)
	}
}

// outputPathExtensionProblem says how outputPath's extension contradicts
// format, and the path to use instead, or returns "".
func outputPathExtensionProblem(outputPath, format string) string {
	lower := strings.ToLower(outputPath)
	for other, exts := range formatExtensions {
		if other == format {
			continue
		}
		for _, ext := range exts {
			if !strings.HasSuffix(lower, ext) {
				continue
			}
			fixed := outputPath[:len(outputPath)-len(ext)] + formatExtensions[format][0]
			return fmt.Sprintf("The `output_path` %q ends in `%s`, but the archive of this job is a %s: %s. "+
				"The file would be a %[3]s under a %[5]s name, which `tar`, unzip tools and object stores' content "+
				"types misread. Name it %[6]q, and rename what reads it (an S3 key, a content type, a Helm value).",
				outputPath, outputPath[len(outputPath)-len(ext):], formatNames[format], formatReasons[format],
				formatNames[other], fixed)
		}
	}
	return ""
}

var (
	formatNames = map[string]string{archivefile.FormatTarGz: "tar.gz", archivefile.FormatZip: "ZIP"}
	// formatReasons say why a job's archive has its format.
	formatReasons = map[string]string{
		archivefile.FormatTarGz: "the job is domain-scoped (no `project_id`), and that contract's bundle is a tar.gz",
		archivefile.FormatZip:   "the job is project-scoped (`project_id` is set), and that contract's bundle is a ZIP",
	}
)
