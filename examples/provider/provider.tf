terraform {
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }
}

# The API key is best kept out of configuration: export MINTLIFY_API_KEY (an
# admin key, beginning with mint_) and MINTLIFY_PROJECT_ID instead.
provider "mintlify" {
  project_id = "proj_0123456789abcdef"
}

# Export the docs of docs.example.com and generate the bundle link.
resource "mintlify_static_export_bundle" "docs" {
  domain = "docs.example.com"
}
