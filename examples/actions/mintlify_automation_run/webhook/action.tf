terraform {
  # Actions need Terraform 1.14 or later; OpenTofu has none.
  required_version = ">= 1.14"

  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }
}

# Run a custom automation whose trigger is Webhook now:
#   terraform apply -invoke=action.mintlify_automation_run.changelog
# The apply prints the run's id once it is queued.
action "mintlify_automation_run" "changelog" {
  config {
    automation_id      = "6650f1c2a0b1c2d3e4f50618"
    automation_trigger = "webhook"
  }
}
