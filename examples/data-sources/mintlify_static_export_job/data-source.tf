terraform {
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }
}

# Read a static export job, for example one started by a CI script.
data "mintlify_static_export_job" "nightly" {
  job_id = "se_3f9a2c1b8e7d4a06"
}

output "nightly_export" {
  value = "${data.mintlify_static_export_job.nightly.status} (${data.mintlify_static_export_job.nightly.progress}%)"
}
