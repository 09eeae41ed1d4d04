# Adopt a preview by the status id of its latest deployment (the `statusId`
# that triggering it answered); `branch` is read from its commit ref. The next
# apply takes `branch` and `triggers` from configuration without deploying;
# `preview_url` stays unknown (null) until the next deployment, because the
# API gives the address only then.
terraform import mintlify_preview_deployment.docs 6650f1c2a0b1c2d3e4f50617
