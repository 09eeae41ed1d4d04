import {
  to = mintlify_static_export_bundle.docs
  id = "se_3f9a2c1b8e7d4a06"
}
