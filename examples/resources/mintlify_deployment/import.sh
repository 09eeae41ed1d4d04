# Adopt a deployment triggered outside Terraform (or by a Terraform run that
# was killed), by its status ID: the `statusId` that triggering it answered,
# or the `deployment_id` of the log line "Deployment triggered". The next
# apply takes `triggers` from configuration without triggering a deployment.
terraform import mintlify_deployment.docs 6650f1c2a0b1c2d3e4f50617
