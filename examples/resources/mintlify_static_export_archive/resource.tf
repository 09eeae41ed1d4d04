terraform {
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }
}

resource "mintlify_static_export_bundle" "docs" {
  domain = "docs.example.com"
}

# Download the export's archive, verified, for your own storage.
resource "mintlify_static_export_archive" "docs" {
  job_id      = mintlify_static_export_bundle.docs.job_id
  output_path = "${path.module}/build/docs-bundle.tar.gz"
}

output "bundle_sha256" {
  value = mintlify_static_export_archive.docs.sha256
}
