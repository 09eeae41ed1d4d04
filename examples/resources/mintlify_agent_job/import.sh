# Adopt an agent job started outside Terraform, by its project and its id.
# The next apply takes `prompt` and `triggers` from configuration without
# starting a new job.
terraform import mintlify_agent_job.release_docs proj_0123456789/aj_3f9a2c1b8e7d4a06

# Or by its id alone, in the provider's project (`project_id` or MINTLIFY_PROJECT_ID).
terraform import mintlify_agent_job.release_docs aj_3f9a2c1b8e7d4a06
