terraform {
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
    aws = {
      source = "hashicorp/aws"
    }
  }
}

variable "docs_commit" {
  description = "The commit of the docs repository that should go live."
  type        = string
}

variable "zone_id" {
  description = "The Route 53 hosted zone of the docs domain."
  type        = string
}

resource "mintlify_deployment" "docs" {
  triggers = {
    docs_commit = var.docs_commit
  }
}

# The custom domain set in the Mintlify dashboard (docs.example.com) points
# at Mintlify through a CNAME record.
resource "aws_route53_record" "docs" {
  zone_id = var.zone_id
  name    = "docs.example.com"
  type    = "CNAME"
  ttl     = 300
  records = ["cname.mintlify.builders"]
}
