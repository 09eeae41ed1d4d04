terraform {
  required_version = ">= 1.10"
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }

  # The state holds job_id and must outlive the runner; locked so that two
  # pipelines never apply at once (use_lockfile: Terraform 1.10 or later, any
  # OpenTofu; before that, dynamodb_table).
  backend "s3" {
    bucket       = "acme-terraform-state"
    key          = "docs/mintlify.tfstate"
    region       = "us-east-1"
    use_lockfile = true
  }
}

# Every setting comes from the pipeline's environment:
#   MINTLIFY_API_KEY     an admin API key, stored as a CI secret
#   MINTLIFY_PROJECT_ID  the project of the agent jobs
#   MINTLIFY_BASE_URL    only when going through a proxy
provider "mintlify" {}

variable "docs_commit" {
  description = "The commit being published, such as the CI's commit SHA."
  type        = string
}

# Deploy the docs commit and wait for it: the export below starts only once
# the deployment has succeeded, and exports what it put live.
resource "mintlify_deployment" "docs" {
  triggers = {
    docs_commit = var.docs_commit
  }
}

# Without renew_before, the link is renewed once less than a quarter of its
# lifetime is left, whatever that lifetime is: schedule runs closer together
# than that (see the guide).
resource "mintlify_static_export_bundle" "docs" {
  domain  = "docs.example.com"
  version = mintlify_deployment.docs.commit_sha

  triggers = {
    deployment = mintlify_deployment.docs.id
  }

  timeouts = {
    create = "45m"
  }
}

output "bundle_expires_at" {
  value = mintlify_static_export_bundle.docs.expires_at
}
