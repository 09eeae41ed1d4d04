terraform {
  required_providers {
    mintlify = {
      source  = "mintlify/mintlify"
      version = "~> 0.1.0"
    }
  }
}

# Run the automation once a day, from a scheduled pipeline that applies
# this configuration: the first apply of each day (UTC) runs it, and any
# other apply that day, such as one after a merge, leaves it alone.
resource "mintlify_automation_run" "nightly" {
  automation_id = "6650f1c2a0b1c2d3e4f50617"

  triggers = {
    day = formatdate("YYYY-MM-DD", plantimestamp())
  }
}
