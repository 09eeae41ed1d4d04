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

# Run the "Update changelog" automation, a custom automation whose trigger is
# Webhook, after each release: the provider calls its webhook, the same URL
# its trigger card shows in the dashboard. The apply returns once the run is
# queued; its result shows in the automation's run history in the dashboard.
resource "mintlify_automation_run" "changelog" {
  automation_id      = "6650f1c2a0b1c2d3e4f50618"
  automation_trigger = "webhook"

  triggers = {
    release = var.app_version
  }
}

output "automation_run_id" {
  value = mintlify_automation_run.changelog.run_id
}
