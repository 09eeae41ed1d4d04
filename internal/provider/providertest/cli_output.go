package providertest

import (
	"io"
	"strings"
	"sync"
)

// output collects a command's stdout and stderr, each apart and both as
// printed, and the complete lines of both, for Process.WaitFor.
type output struct {
	mu                       sync.Mutex
	stdout, stderr, combined strings.Builder
	lines                    []string
	partial                  [2]string
	// grew is closed, and replaced, whenever a line is complete; nil once
	// the command has ended.
	grew chan struct{}
}

func newOutput() *output { return &output{grew: make(chan struct{})} }

// stream is the writer of stdout (0) or stderr (1).
func (o *output) stream(i int) io.Writer { return streamWriter{o, i} }

type streamWriter struct {
	o *output
	i int
}

func (w streamWriter) Write(p []byte) (int, error) {
	o := w.o
	o.mu.Lock()
	defer o.mu.Unlock()
	if w.i == 0 {
		o.stdout.Write(p)
	} else {
		o.stderr.Write(p)
	}
	o.combined.Write(p)
	text := o.partial[w.i] + string(p)
	complete := strings.Split(text, "\n")
	o.partial[w.i] = complete[len(complete)-1]
	if len(complete) > 1 {
		o.lines = append(o.lines, complete[:len(complete)-1]...)
		close(o.grew)
		o.grew = make(chan struct{})
	}
	return len(p), nil
}

// close ends the output: an unfinished last line counts as a line.
func (o *output) close() {
	o.mu.Lock()
	defer o.mu.Unlock()
	for i, rest := range o.partial {
		if rest != "" {
			o.lines = append(o.lines, rest)
			o.partial[i] = ""
		}
	}
	close(o.grew)
	o.grew = nil
}

// linesFrom returns the complete lines after the first n, and a channel
// closed when there are more; nil when the command has ended and there
// never will be.
func (o *output) linesFrom(n int) ([]string, <-chan struct{}) {
	o.mu.Lock()
	defer o.mu.Unlock()
	lines := append([]string(nil), o.lines[n:]...)
	if o.grew == nil {
		return lines, nil
	}
	return lines, o.grew
}

// String is everything printed so far, stdout and stderr interleaved.
func (o *output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.combined.String()
}
