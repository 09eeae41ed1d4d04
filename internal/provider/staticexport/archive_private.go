package staticexport

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/mintlify/terraform-provider-mintlify/internal/archivefile"
)

// privateGetter is the part of the framework's private state that a look
// at the archive reads: the requests of a refresh and of a destroy give it.
type privateGetter interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

// archiveFacts are the archive's facts in its private state.
type archiveFacts struct {
	// Written is the identity of the file the resource wrote (or took as
	// its own); zero when none is known.
	Written archivefile.Identity `json:"written,omitzero"`
	// FileDrift is what the last refresh found at output_path when it is
	// not the archive the resource wrote; every refresh writes or removes
	// it, and ModifyPlan plans from it.
	//
	// Unlike the bundle's PlannedAction, it is no order for the apply: the
	// apply looks at output_path again and acts on what it finds then. The
	// job in Mintlify changes only through the provider, but a local file
	// can change between the plan and the apply (another process, a
	// restored cache, a second apply of the same plan), and acting on the
	// plan's picture of it could replace or delete a file the resource no
	// longer owns.
	FileDrift *fileVerdict `json:"file_drift,omitempty"`
}

// The archive's verdict on output_path, which its private state keeps as
// FileDrift (static_export_archive_ownership.go judges it).

// fileKind is what is at output_path, against what the resource wrote.
type fileKind string

const (
	fileIntact  fileKind = "intact"  // the archive the resource wrote
	fileMissing fileKind = "missing" // nothing
	fileChanged fileKind = "changed" // the file the resource wrote, with other content
	fileForeign fileKind = "foreign" // something else: another file moved into place, a directory, a link
)

// fileVerdict is what a look at output_path found.
type fileVerdict struct {
	Kind fileKind `json:"kind"`
	// SHA256 is the hex SHA-256 of the regular file found, when it is not
	// the archive.
	SHA256 string `json:"sha256,omitempty"`
	// What describes a foreign entry: "a file", or what it is when it is
	// not a regular file, such as "a directory".
	What string `json:"what,omitempty"`
	// NotRegular is set for a foreign entry that is not a regular file,
	// which is never replaced, even with overwrite.
	NotRegular bool `json:"not_regular,omitempty"`
	// SameInode is set for a foreign file that has the identity recorded
	// without a birth time: an edit and a new file given the same inode
	// cannot be told apart.
	SameInode bool `json:"same_inode,omitempty"`
	// id is the identity of the file found, when intact; adopted says that
	// it differs from the one recorded (the file is taken as the
	// resource's by its content).
	id      archivefile.Identity
	adopted bool
}
