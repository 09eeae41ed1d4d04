terraform {
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }
}

# Without `domain`, the export is project-scoped, in the provider's project
# (MINTLIFY_PROJECT_ID, from the API keys page of the Mintlify dashboard):
# its archive is a ZIP.
resource "mintlify_static_export_bundle" "docs" {
}

# Download the archive, read from the job under its project, verified.
resource "mintlify_static_export_archive" "docs" {
  project_id  = mintlify_static_export_bundle.docs.project_id
  job_id      = mintlify_static_export_bundle.docs.job_id
  output_path = "${path.module}/build/docs-export.zip"
}

# "zip" here, "tar.gz" for an export with `domain`: told by the archive's
# first bytes, never by its name. Extract a zip with `unzip`.
output "archive_format" {
  value = mintlify_static_export_archive.docs.format
}

output "archive_sha256" {
  value = mintlify_static_export_archive.docs.sha256
}
