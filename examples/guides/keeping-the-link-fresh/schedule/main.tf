terraform {
  required_version = ">= 1.10" # use_lockfile
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }

  # The state holds job_id and must outlive the CI runner; locked so that two
  # runs never apply at once (before Terraform 1.10: dynamodb_table).
  backend "s3" {
    bucket       = "acme-terraform-state"
    key          = "docs/mintlify.tfstate"
    region       = "us-east-1"
    use_lockfile = true
  }
}

variable "docs_commit" {
  description = "The commit of the docs repository to publish."
  type        = string
  default     = "4f1c2e9"
}

# Deploy the docs commit and wait for it: the export below starts only once
# the deployment has succeeded, and exports what it put live.
resource "mintlify_deployment" "docs" {
  triggers = {
    docs_commit = var.docs_commit
  }
}

resource "mintlify_static_export_bundle" "docs" {
  domain  = "docs.example.com"
  version = mintlify_deployment.docs.commit_sha

  # No renew_before: renewed once less than a quarter of its lifetime is
  # left. Apply at least every eighth of the lifetime (bundle_expires_at).

  # A new deployment means a new export; renewals reuse the export.
  triggers = {
    deployment = mintlify_deployment.docs.id
  }
}

# Warns on a run that does not renew the link (`terraform plan
# -refresh-only`, for pipelines that only check for drift between applies)
# when the link expires within 2 hours. A plan that renews it knows the new
# expiry only after apply, and does not warn.
check "bundle_link_fresh" {
  assert {
    condition     = timecmp(timeadd(plantimestamp(), "2h"), mintlify_static_export_bundle.docs.expires_at) < 0
    error_message = "The static export link expires within 2 hours: run terraform apply."
  }
}

output "bundle_expires_at" {
  value = mintlify_static_export_bundle.docs.expires_at
}
