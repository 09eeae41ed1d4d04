terraform {
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }
}

# Adopt a deployment by its status ID; the deployment names its project. The
# next apply records the triggers and, if the deployment still runs, waits for
# it; no new deployment is triggered.
import {
  to = mintlify_deployment.docs
  id = "6650f1c2a0b1c2d3e4f50617"
}

resource "mintlify_deployment" "docs" {
  triggers = {
    docs_commit = "3b1f0c9"
  }
}
