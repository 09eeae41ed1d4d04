terraform {
  # Ephemeral input variables need Terraform 1.10 or later; every OpenTofu
  # release the provider supports (1.12 or later) has them.
  required_version = ">= 1.10"

  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }
}

# The key as an input variable, kept out of saved plan files: an ephemeral
# variable is never written to a plan or to state (`sensitive` only hides a
# value from the CLI's output). Give it at every plan and apply, for instance
# as TF_VAR_mintlify_api_key: `terraform apply tfplan` needs it again.
variable "mintlify_api_key" {
  description = "A Mintlify admin API key (it begins with mint_)."
  type        = string
  ephemeral   = true
}

provider "mintlify" {
  api_key = var.mintlify_api_key
}

resource "mintlify_static_export_bundle" "docs" {
  domain = "docs.example.com"
}
