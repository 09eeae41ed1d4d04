terraform {
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }
}

provider "mintlify" {
  # The project ID is on the API keys page of the Mintlify dashboard; the
  # key comes from MINTLIFY_API_KEY.
  project_id = "my-project"
}

# Without `domain`, the export is project-scoped: started under the project,
# its link renewed by reading the job (a read-only key may renew it).
resource "mintlify_static_export_bundle" "docs" {
  base_path = "/docs" # "", "/docs" or "/documentation"

  timeouts = {
    # Also bounds the wait for another export of the deployment (409).
    create = "45m"
  }
}

# The job's status, read under the bundle's project. This data source has no
# link: the link is the bundle's `bundle_url`.
data "mintlify_static_export_job" "docs" {
  project_id = mintlify_static_export_bundle.docs.project_id
  job_id     = mintlify_static_export_bundle.docs.job_id
}

output "export_status" {
  value = data.mintlify_static_export_job.docs.status
}
