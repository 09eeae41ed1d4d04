# Adopt an existing static export job by its id. The next apply takes
# `domain`, `version` and `paths` from configuration and generates a link
# for the job, without starting a new export.
terraform import mintlify_static_export_bundle.docs se_3f9a2c1b8e7d4a06

# A project-scoped export (a bundle without `domain`) by its project and job.
terraform import mintlify_static_export_bundle.docs my-project/6520f3a1c9b1a20012ab34cd
