package staticexport

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/internal/archivefile"
	"github.com/mintlify/terraform-provider-mintlify/internal/mintlify"
)

// The archive of a project-scoped job (`project_id` set): no bundle call,
// the link comes from a read of the completed job, and the archive is a
// ZIP there (archivefile tells it by its first bytes, never by the link,
// and refuses any other format).

// downloadProjectExport reads the job, waits for it if it has not
// completed, as the domain-scoped path does, and downloads the archive
// from the link of the read that found it completed.
func (r *staticExportArchiveResource) downloadProjectExport(ctx context.Context, at *archiveAttempt, file *archivefile.File) (*mintlify.Download, error) {
	client := r.Provider.Client
	at.step = stepRead
	job, err := client.GetProjectExportJob(ctx, at.projectID, at.jobID)
	if err != nil {
		return nil, err
	}
	if job.Status != mintlify.StatusCompleted {
		tflog.Info(ctx, "The static export job has not completed; waiting for it before downloading its archive",
			map[string]any{LogFieldJobID: at.jobID, "status": job.Status})
		at.step = stepWait
		job, err = client.WaitForProjectExport(ctx, at.projectID, at.jobID, mintlify.Started(job),
			mintlify.OnChange(logProjectExportProgress(ctx)))
		if err != nil {
			return nil, err
		}
	}
	at.step = stepDownload
	return client.DownloadProjectExport(ctx, job, file)
}

// promisedFormat is the format the job's contract promises: a ZIP for a
// project-scoped job, a tar.gz for a domain-scoped one.
func (at archiveAttempt) promisedFormat() string {
	if at.projectID != "" {
		return archivefile.FormatZip
	}
	return archivefile.FormatTarGz
}

// job names the attempt's job in a diagnostic, after "static export job":
// its id, and its project when it has one.
func (at archiveAttempt) job() string {
	if at.projectID == "" {
		return at.jobID
	}
	return fmt.Sprintf("%s of project %s", at.jobID, at.projectID)
}
