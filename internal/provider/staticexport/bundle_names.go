package staticexport

// jobIDFix is what to do about a `job_id` that names no static export job,
// for the archive and the ephemeral bundle alike.
const jobIDFix = "Set it to the ID of a completed static export job, usually " +
	"`mintlify_static_export_bundle.<name>.job_id`."
