# The registry example once the archive has left the configuration: the
# removed block has Terraform forget the archive and leave its file on disk,
# where deleting the resource block alone would delete the file too
# (Terraform 1.7 or later, OpenTofu 1.12 or later).

terraform {
  required_version = ">= 1.7"
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

removed {
  from = mintlify_static_export_archive.docs

  lifecycle {
    destroy = false
  }
}
