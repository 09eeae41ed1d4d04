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

# Run an automation with a custom schedule now:
#   terraform apply -invoke=action.mintlify_automation_run.check_links
# The apply prints the run's ids once it is queued.
action "mintlify_automation_run" "check_links" {
  config {
    automation_id = "6650f1c2a0b1c2d3e4f50617"
  }
}
