terraform {
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }
}

variable "docs_commit" {
  description = "The commit of the docs repository that should go live, such as the CI job's commit SHA."
  type        = string
}

# Mintlify deploys the head of the deployment branch, whatever docs_commit
# says: the postcondition fails the apply when that is another commit, such
# as after a later push, or before the branch has received this one.
resource "mintlify_deployment" "docs" {
  triggers = {
    docs_commit = var.docs_commit
  }

  lifecycle {
    postcondition {
      condition     = startswith(coalesce(self.commit_sha, "unknown"), var.docs_commit)
      error_message = "Mintlify deployed ${coalesce(self.commit_sha, "an unknown commit")}, not ${var.docs_commit}: the deployment branch's head is another commit."
    }
  }
}
