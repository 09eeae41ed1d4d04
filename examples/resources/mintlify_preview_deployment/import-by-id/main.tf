terraform {
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }
}

# Adopt a preview by the status id of its latest deployment. The next apply
# records the branch; nothing is deployed.
import {
  to = mintlify_preview_deployment.docs
  id = "6650f1c2a0b1c2d3e4f50617"
}

resource "mintlify_preview_deployment" "docs" {
  branch = "feature/new-api"
}
