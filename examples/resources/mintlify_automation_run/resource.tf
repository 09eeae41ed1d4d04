terraform {
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }
}

variable "app_version" {
  description = "The release of the product: each new release runs the automation once."
  type        = string
}

# Run the "Check links" automation (it has a custom schedule) after each
# release, as well as on its schedule. The apply returns once the run is
# queued; its result shows in the automation's run history in the dashboard.
resource "mintlify_automation_run" "check_links" {
  automation_id = "6650f1c2a0b1c2d3e4f50617"

  triggers = {
    release = var.app_version
  }
}

output "automation_job_id" {
  value = mintlify_automation_run.check_links.job_id
}
