terraform {
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
    http = {
      source = "hashicorp/http"
    }
  }
}

variable "docs_commit" {
  description = "The commit of the docs repository that should go live."
  type        = string
}

variable "release_marker" {
  description = "Text that this commit adds to the page below, such as the release's version on the changelog page."
  type        = string
}

resource "mintlify_deployment" "docs" {
  triggers = {
    docs_commit = var.docs_commit
  }
}

# A deployment ends in success even while an instant rollback keeps an
# earlier one online. After each apply, this check reads the live page and
# warns when it does not show the new commit's text: the apply still
# succeeds, and the warning names what to look at.
check "live_site_shows_the_deployment" {
  data "http" "changelog" {
    url        = "https://docs.example.com/changelog"
    depends_on = [mintlify_deployment.docs]
  }

  assert {
    condition     = data.http.changelog.status_code == 200 && strcontains(data.http.changelog.response_body, var.release_marker)
    error_message = "Deployment ${mintlify_deployment.docs.id} of ${mintlify_deployment.docs.commit_sha} succeeded, but https://docs.example.com/changelog does not show \"${var.release_marker}\": check the Mintlify dashboard for an active instant rollback, or allow a few minutes for caches."
  }
}
