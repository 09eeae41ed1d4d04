resource "helm_release" "mintlify" {
  name  = "mintlify"
  chart = "mintlify"

  set = [
    {
      name  = "staticExport.enabled"
      value = "true"
    },
    {
      name  = "staticExport.version"
      value = mintlify_static_export_bundle.docs.version
    }
  ]

  # Kept out of `terraform plan` output, but stored in state.
  set_sensitive = [
    {
      name  = "staticExport.bundleUrl"
      value = mintlify_static_export_bundle.docs.bundle_url
    }
  ]
}
