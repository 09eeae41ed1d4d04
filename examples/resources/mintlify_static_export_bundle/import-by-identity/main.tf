terraform {
  required_version = ">= 1.12"

  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }
}

# Adopt an existing export job by its identity: the next apply generates a
# link for it, without starting a new export.
import {
  to       = mintlify_static_export_bundle.docs
  identity = { job_id = "se_3f9a2c1b8e7d4a06" }
}

resource "mintlify_static_export_bundle" "docs" {
  domain = "docs.example.com"
}
