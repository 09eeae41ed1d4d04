terraform {
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 5.0"
    }
  }
}

variable "docs_commit" {
  description = "The commit of the docs repository that should go live."
  type        = string
}

variable "zone_id" {
  description = "The Cloudflare zone of the docs domain."
  type        = string
}

resource "mintlify_deployment" "docs" {
  triggers = {
    docs_commit = var.docs_commit
  }
}

# The custom domain set in the Mintlify dashboard (docs.example.com) points
# at Mintlify through a CNAME record, DNS only: Mintlify asks that
# Cloudflare not proxy it.
resource "cloudflare_dns_record" "docs" {
  zone_id = var.zone_id
  name    = "docs.example.com"
  type    = "CNAME"
  content = "cname.mintlify.builders"
  ttl     = 1
  proxied = false
}
