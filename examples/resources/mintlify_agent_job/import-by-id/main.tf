terraform {
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }
}

# Adopt an agent job started outside Terraform: PROJECT_ID/JOB_ID, or JOB_ID
# in the provider's project. The next apply records the prompt; no new job starts.
import {
  to = mintlify_agent_job.release_docs
  id = "proj_0123456789/aj_3f9a2c1b8e7d4a06"
}

resource "mintlify_agent_job" "release_docs" {
  prompt = "Document the changes of release 2.3.0 in the changelog and the affected guides."
}
