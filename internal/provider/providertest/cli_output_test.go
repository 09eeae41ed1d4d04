package providertest

import (
	"slices"
	"testing"
)

// TestOutputLines: the lines WaitFor searches are the complete lines of
// both streams, however the writes split them, and an unfinished last line
// counts once the command has ended; Output keeps the order of the writes.
func TestOutputLines(t *testing.T) {
	o := newOutput()
	stdout, stderr := o.stream(0), o.stream(1)
	_, _ = stdout.Write([]byte("mintlify_static_export_bundle.docs: Crea"))
	_, _ = stderr.Write([]byte("[INFO] Static export job started\n[DEBUG] po"))
	lines, grew := o.linesFrom(0)
	if !slices.Equal(lines, []string{"[INFO] Static export job started"}) || grew == nil {
		t.Fatalf("lines %q (more to come: %v), want the complete stderr line", lines, grew != nil)
	}
	_, _ = stdout.Write([]byte("ting...\nApply"))
	select {
	case <-grew:
	default:
		t.Fatal("a completed line did not wake the waiters")
	}
	o.close()
	lines, grew = o.linesFrom(1)
	if want := []string{"mintlify_static_export_bundle.docs: Creating...", "Apply", "[DEBUG] po"}; !slices.Equal(lines, want) || grew != nil {
		t.Errorf("lines after the first: %q (more to come: %v), want %q and no more", lines, grew != nil, want)
	}
	if got, want := o.String(), "mintlify_static_export_bundle.docs: Crea[INFO] Static export job started\n[DEBUG] poting...\nApply"; got != want {
		t.Errorf("Output = %q, want %q", got, want)
	}
	if o.stdout.String() != "mintlify_static_export_bundle.docs: Creating...\nApply" {
		t.Errorf("stdout = %q", o.stdout.String())
	}
}
