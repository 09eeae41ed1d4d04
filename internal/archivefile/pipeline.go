package archivefile

import (
	"crypto/md5" //nolint:gosec // see archivefile.go
	"crypto/sha256"
	"errors"
	"hash"
	"io"
	"os"
	"sync"
	"sync/atomic"
)

// The buffers the bytes pass through: 16 of 512 KiB, 8 MiB in all,
// whatever the archive's size.
const (
	chunkSize = 512 << 10
	numChunks = 16
)

// chunk is one buffer of the archive, shared by every worker until each
// has released it.
type chunk struct {
	buf  []byte
	n    int
	refs atomic.Int32
}

func newChunks() []*chunk {
	chunks := make([]*chunk, numChunks)
	for i := range chunks {
		chunks[i] = &chunk{buf: make([]byte, chunkSize)}
	}
	return chunks
}

// errStopped ends a worker's reading once another worker has failed.
var errStopped = errors.New("archivefile: stopped")

// pipeline is one attempt: produce reads the archive into chunks and hands
// each to four workers, each on its own goroutine and in order: the file
// (which starts writing each 8 MiB to disk as it goes, see writeback),
// SHA-256, MD5 and the gzip+tar check. A chunk goes back to the free list
// once all four have released it, so reading waits for the slowest.
type pipeline struct {
	free    chan *chunk
	workers []chan *chunk
	wg      sync.WaitGroup

	sha, md5 hash.Hash
	entries  int // set by the check

	stopOnce sync.Once
	stop     chan struct{}
	errMu    sync.Mutex
	err      error
}

func startPipeline(chunks []*chunk, file *os.File) *pipeline {
	p := &pipeline{
		free: make(chan *chunk, len(chunks)),
		sha:  sha256.New(),
		md5:  md5.New(), //nolint:gosec // see archivefile.go
		stop: make(chan struct{}),
	}
	for _, c := range chunks {
		p.free <- c
	}
	wb := writeback{file: file}
	p.spawn(func(b []byte) error { _, err := file.Write(b); wb.wrote(len(b)); return err })
	p.spawn(func(b []byte) error { _, _ = p.sha.Write(b); return nil })
	p.spawn(func(b []byte) error { _, _ = p.md5.Write(b); return nil })

	check := make(chan *chunk, len(chunks))
	p.workers = append(p.workers, check)
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		r := &chunkReader{ch: check, p: p}
		entries, err := verify(r)
		if err != nil && !errors.Is(err, errStopped) {
			p.fail(err)
		}
		p.entries = entries
		r.drain()
	}()
	return p
}

// spawn starts a worker that applies work to every chunk, until it fails.
func (p *pipeline) spawn(work func([]byte) error) {
	ch := make(chan *chunk, cap(p.free))
	p.workers = append(p.workers, ch)
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for c := range ch {
			if !p.stopped() {
				if err := work(c.buf[:c.n]); err != nil {
					p.fail(err)
				}
			}
			p.release(c)
		}
	}()
}

// produce reads r into chunks until r ends, fails, or a worker fails. It
// returns the bytes read and r's error (io.EOF is no error).
func (p *pipeline) produce(r io.Reader) (int64, error) {
	var total int64
	for {
		var c *chunk
		select {
		case c = <-p.free:
		case <-p.stop:
			return total, nil // a worker failed: finish reports it
		}
		n, err := fill(r, c.buf)
		total += int64(n)
		if n > 0 {
			c.n = n
			c.refs.Store(int32(len(p.workers)))
			for _, w := range p.workers {
				w <- c // never blocks: each channel holds every chunk there is
			}
		} else {
			p.free <- c
		}
		switch {
		case errors.Is(err, io.EOF):
			return total, nil
		case err != nil:
			p.halt()
			return total, err
		}
	}
}

// fill reads from r until buf is full or r returns an error.
func fill(r io.Reader, buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := r.Read(buf[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// finish lets the workers run out and returns the entry count and the
// first worker's error.
func (p *pipeline) finish() (int, error) {
	for _, w := range p.workers {
		close(w)
	}
	p.wg.Wait()
	p.errMu.Lock()
	defer p.errMu.Unlock()
	return p.entries, p.err
}

func (p *pipeline) release(c *chunk) {
	if c.refs.Add(-1) == 0 {
		p.free <- c
	}
}

// fail records a worker's error (the first one wins) and stops everyone.
func (p *pipeline) fail(err error) {
	p.errMu.Lock()
	if p.err == nil {
		p.err = err
	}
	p.errMu.Unlock()
	p.halt()
}

func (p *pipeline) halt() { p.stopOnce.Do(func() { close(p.stop) }) }

func (p *pipeline) stopped() bool {
	select {
	case <-p.stop:
		return true
	default:
		return false
	}
}

// chunkReader reads the chunks handed to the check as one stream.
type chunkReader struct {
	ch  <-chan *chunk
	p   *pipeline
	cur *chunk
	off int
}

func (r *chunkReader) Read(b []byte) (int, error) {
	for r.cur == nil || r.off == r.cur.n {
		if r.cur != nil {
			r.p.release(r.cur)
			r.cur = nil
		}
		if r.p.stopped() {
			return 0, errStopped
		}
		c, ok := <-r.ch
		if !ok {
			return 0, io.EOF
		}
		r.cur, r.off = c, 0
	}
	n := copy(b, r.cur.buf[r.off:r.cur.n])
	r.off += n
	return n, nil
}

// drain releases whatever the check did not read.
func (r *chunkReader) drain() {
	if r.cur != nil {
		r.p.release(r.cur)
		r.cur = nil
	}
	for c := range r.ch {
		r.p.release(c)
	}
}
