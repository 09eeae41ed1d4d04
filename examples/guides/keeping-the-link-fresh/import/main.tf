terraform {
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }
}

# Adopt an export started outside Terraform, for example by a CI script.
# The next apply generates a link for it; no new export runs.
import {
  to = mintlify_static_export_bundle.docs
  id = "se_3f9a2c1b8e7d4a06"
}

resource "mintlify_static_export_bundle" "docs" {
  domain = "docs.example.com"
}
