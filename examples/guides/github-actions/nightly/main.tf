terraform {
  # use_lockfile of the s3 backend needs Terraform 1.10 or later (any OpenTofu).
  required_version = ">= 1.10"
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }

  # The state remembers the day of the last run: without it, every run
  # would run the automation again.
  backend "s3" {
    bucket       = "acme-terraform-state"
    key          = "docs/nightly.tfstate"
    region       = "us-east-1"
    use_lockfile = true
  }
}

# MINTLIFY_API_KEY and MINTLIFY_PROJECT_ID come from the workflow's environment.
provider "mintlify" {}

# The first apply of each day (UTC) runs the automation; any other apply
# that day, such as a re-run of the workflow, leaves it alone.
resource "mintlify_automation_run" "nightly" {
  automation_id = "6650f1c2a0b1c2d3e4f50617"

  triggers = {
    day = formatdate("YYYY-MM-DD", plantimestamp())
  }
}
