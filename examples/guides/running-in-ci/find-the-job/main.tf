terraform {
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }
}

# Read the jobs that the log of a killed apply names, before adopting them.
data "mintlify_static_export_job" "killed" {
  job_id = "se_3f9a2c1b8e7d4a06"
}

data "mintlify_agent_job" "killed" {
  project_id = "proj_3f9a2c1b"
  id         = "aj_8e7d4a063f9a2c1b"
}

output "export" {
  value = "${data.mintlify_static_export_job.killed.status} at ${data.mintlify_static_export_job.killed.progress}%"
}

output "agent_job" {
  value = data.mintlify_agent_job.killed.status
}
