# Tests of the docs-release module that need no API key and no network:
# `terraform test` (Terraform 1.7 or later) or `tofu test` (OpenTofu 1.12 or
# later), after `init`.
#
# A mocked provider makes up the values of computed attributes, by default
# random strings: `helm_values` would not be the chart's values, `bundle_url`
# no link and no ID in its API shape. The defaults below give every computed
# attribute the module reads a value in the shape the Mintlify API gives it.
# Copy the block into your own module's tests and keep the types your module
# uses.
mock_provider "mintlify" {
  mock_resource "mintlify_deployment" {
    defaults = {
      id             = "6650f1c2a0b1c2d3e4f50617" # a status ID: 24 hex digits
      status         = "success"
      summary        = "Deployed"
      source         = "api"
      commit_sha     = "3b1f0c9d2e4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c"
      commit_ref     = "main"
      commit_message = "Document the new API"
      created_at     = "2026-11-21T09:00:00.000Z"
      ended_at       = "2026-11-21T09:03:20.000Z"
    }
  }

  mock_resource "mintlify_static_export_bundle" {
    defaults = {
      id            = "se_3f9a2c1b8e7d4a06" # the export job ID: se_ and 16 hex digits
      job_id        = "se_3f9a2c1b8e7d4a06"
      status        = "completed"
      progress      = 100
      page_count    = 128
      size_bytes    = 5242880
      link_revision = 1
      created_at    = "2026-11-21T09:03:21Z"
      expires_at    = "2026-11-21T10:03:30Z"
      bundle_url    = "https://storage.example.com/bundles/se_3f9a2c1b8e7d4a06/bundle.tar.gz?X-Amz-Expires=3600&X-Amz-Signature=0f1e2d3c"
      # The chart's values for that link, as the provider writes them; its
      # version is the deployment's commit_sha above, which the module
      # passes as `version`.
      helm_values = <<-YAML
        staticExport:
          enabled: true
          bundleUrl: "https://storage.example.com/bundles/se_3f9a2c1b8e7d4a06/bundle.tar.gz?X-Amz-Expires=3600&X-Amz-Signature=0f1e2d3c"
          version: "3b1f0c9d2e4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c"
        YAML
    }
  }

  mock_resource "mintlify_preview_deployment" {
    defaults = {
      id             = "6650f1c2a0b1c2d3e4f50618"
      status         = "success"
      summary        = "Deployed"
      source         = "api"
      preview_url    = "https://acme-release-2026-12.mintlify.app"
      commit_sha     = "9d2e4a1b3c5d7e9f0a2b4c6d8e0f1a3b5c7d9e1f"
      commit_ref     = "release-2026-12"
      commit_message = "Draft the December release notes"
      created_at     = "2026-11-21T09:00:00.000Z"
      ended_at       = "2026-11-21T09:03:20.000Z"
    }
  }

  mock_data "mintlify_agent_job" {
    defaults = {
      status     = "completed"
      model      = "sonnet"
      pr_link    = "https://github.com/acme/docs/pull/42"
      created_at = "2026-11-21T09:00:00Z"
      source = {
        repository = "https://github.com/acme/docs"
        ref        = "docs/release-notes"
      }
    }
  }
}

variables {
  domain      = "docs.example.com"
  docs_commit = "3b1f0c9"
}

run "release" {
  variables {
    preview_branch = "release-2026-12"
    agent_job_id   = "aj_8e7d4a063f9a2c1b"
  }

  assert {
    condition     = yamldecode(output.chart_values) == { staticExport = { enabled = true, version = output.deployed_commit } }
    error_message = "chart_values is not the chart's values without the link, tagged with the deployed commit."
  }

  assert {
    condition     = can(yamldecode(output.helm_values).staticExport.bundleUrl)
    error_message = "helm_values is not the chart's values as YAML."
  }

  assert {
    condition     = try(yamldecode(output.helm_values).staticExport.enabled, false) == true
    error_message = "helm_values does not enable the static export."
  }

  assert {
    condition     = try(yamldecode(output.helm_values).staticExport.bundleUrl, null) == output.bundle_url
    error_message = "helm_values does not hold the bundle link."
  }

  assert {
    condition     = try(yamldecode(output.helm_values).staticExport.version, null) == output.deployed_commit
    error_message = "helm_values is not tagged with the deployed commit."
  }

  assert {
    condition     = can(regex("^https://[^/?#]+/", output.bundle_url))
    error_message = "bundle_url is not an https link."
  }

  assert {
    condition     = can(regex("^se_[0-9a-f]{16}$", output.export_job_id))
    error_message = "export_job_id is not a static export job ID."
  }

  assert {
    condition     = can(regex("^[0-9a-f]{24}$", output.deployment_id))
    error_message = "deployment_id is not a deployment status ID."
  }

  assert {
    condition     = can(regex("^[0-9a-f]{7,40}$", output.deployed_commit))
    error_message = "deployed_commit is not a commit SHA."
  }

  assert {
    condition     = can(formatdate("YYYY", output.expires_at))
    error_message = "expires_at is not an RFC 3339 time."
  }

  assert {
    condition     = can(regex("^https://[^/]+\\.mintlify\\.app$", output.preview_url))
    error_message = "preview_url is not the address of a preview."
  }

  assert {
    condition     = can(regex("^https://github\\.com/[^/]+/[^/]+/pull/[0-9]+$", output.release_pull_request))
    error_message = "release_pull_request is not a pull request's link."
  }
}

run "without_preview_or_agent_job" {
  assert {
    condition     = output.preview_url == null && output.release_pull_request == null
    error_message = "The module deployed a preview or read an agent job it was not given."
  }

  assert {
    condition     = can(regex("^https://", output.bundle_url))
    error_message = "bundle_url is not an https link."
  }
}
