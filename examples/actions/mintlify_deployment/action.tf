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

# Deploy the docs site on demand:
#   terraform apply -invoke=action.mintlify_deployment.docs
# The apply prints each status change and log line, then the commit deployed.
action "mintlify_deployment" "docs" {
  config {
    timeout = "20m"
  }
}
