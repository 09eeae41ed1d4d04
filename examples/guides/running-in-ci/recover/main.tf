terraform {
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }
}

# The configuration whose apply was killed, unchanged, plus one import block
# for each job that the log names. Once the resources are in state, the
# import blocks do nothing: remove them whenever you like.

# Static export job started: ... import_id=se_3f9a2c1b8e7d4a06
import {
  to = mintlify_static_export_bundle.docs
  id = "se_3f9a2c1b8e7d4a06"
}

resource "mintlify_static_export_bundle" "docs" {
  domain = "docs.example.com"
}

# Agent job started: ... import_id=proj_3f9a2c1b/aj_8e7d4a063f9a2c1b
import {
  to = mintlify_agent_job.release_notes
  id = "proj_3f9a2c1b/aj_8e7d4a063f9a2c1b"
}

resource "mintlify_agent_job" "release_notes" {
  prompt = "Document the changes of release 2.3"
}
