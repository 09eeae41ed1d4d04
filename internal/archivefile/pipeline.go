package archivefile

import (
	"context"
	"errors"
	"io"
	"sync"
)

// The buffers the archive passes through: 16 of 512 KiB, 8 MiB in all,
// whatever its size.
const (
	bufferSize = 512 << 10
	numBuffers = 16
)

// errStopped ends a consumer's reading once the reading or another
// consumer has failed.
var errStopped = errors.New("archivefile: stopped")

// buffer is one of the buffers, shared by every consumer until each is done
// with it.
type buffer struct {
	data []byte
	n    int
	busy sync.WaitGroup // the consumers not yet done with data[:n]
}

func newBuffers() []buffer {
	buffers := make([]buffer, numBuffers)
	for i := range buffers {
		buffers[i].data = make([]byte, bufferSize)
	}
	return buffers
}

// fanOut is an io.Pipe to several consumers, each on its own goroutine,
// that holds several buffers and copies none of them: copy reads the
// stream into the buffers in turn and hands each to every consumer, and
// reads into it again once all are done with it. The slowest consumer
// sets the pace; the others run ahead by up to numBuffers buffers.
type fanOut struct {
	buffers []buffer
	queues  []chan *buffer
	wg      sync.WaitGroup
	// halted is done once the reading or a consumer has failed; its cause
	// is the first consumer's error, or errStopped for the reading's.
	halted context.Context
	halt   context.CancelCauseFunc
}

func newFanOut(buffers []buffer) *fanOut {
	halted, halt := context.WithCancelCause(context.Background())
	return &fanOut{buffers: buffers, halted: halted, halt: halt}
}

// add starts a consumer, which reads its copy of the stream until it ends
// (io.EOF) or fails. What it leaves unread is discarded.
func (fo *fanOut) add(consume func(io.Reader) error) {
	q := make(chan *buffer, len(fo.buffers)) // never full: it holds every buffer there is
	fo.queues = append(fo.queues, q)
	fo.wg.Go(func() {
		r := &queueReader{queue: q, halted: fo.halted}
		if err := consume(r); err != nil {
			fo.halt(err) // errStopped when the halt came first: the first cause stays
		}
		r.drain()
	})
}

// copy feeds r to every consumer until r ends, fails, or a consumer fails,
// and waits for the consumers. It returns the bytes read, r's error (io.EOF
// is no error) and the first consumer's error.
func (fo *fanOut) copy(r io.Reader) (n int64, readErr, consumeErr error) {
	for i := 0; readErr == nil && fo.halted.Err() == nil; i++ {
		b := &fo.buffers[i%len(fo.buffers)]
		b.busy.Wait()
		var err error
		b.n, err = fill(r, b.data)
		n += int64(b.n)
		if b.n > 0 {
			b.busy.Add(len(fo.queues))
			for _, q := range fo.queues {
				q <- b
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		readErr = err
	}
	if readErr != nil {
		fo.halt(errStopped)
	}
	for _, q := range fo.queues {
		close(q)
	}
	fo.wg.Wait()
	if err := context.Cause(fo.halted); !errors.Is(err, errStopped) {
		consumeErr = err
	}
	fo.halt(nil) // releases the context
	return n, readErr, consumeErr
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

// queueReader reads the buffers of one consumer's queue as one stream. Its
// WriteTo, which io.Copy uses, writes them out without copying.
type queueReader struct {
	queue  <-chan *buffer
	halted context.Context
	cur    *buffer
	off    int
}

// next makes cur a buffer with unread bytes, done with the one before.
func (r *queueReader) next() error {
	for r.cur == nil || r.off == r.cur.n {
		if r.cur != nil {
			r.cur.busy.Done()
			r.cur = nil
		}
		if r.halted.Err() != nil {
			return errStopped
		}
		b, ok := <-r.queue
		if !ok {
			return io.EOF
		}
		r.cur, r.off = b, 0
	}
	return nil
}

func (r *queueReader) Read(p []byte) (int, error) {
	if err := r.next(); err != nil {
		return 0, err
	}
	n := copy(p, r.cur.data[r.off:r.cur.n])
	r.off += n
	return n, nil
}

func (r *queueReader) WriteTo(w io.Writer) (int64, error) {
	var total int64
	for {
		if err := r.next(); errors.Is(err, io.EOF) {
			return total, nil
		} else if err != nil {
			return total, err
		}
		n, err := w.Write(r.cur.data[r.off:r.cur.n])
		r.off += n
		total += int64(n)
		if err != nil {
			return total, err
		}
	}
}

// drain is done with every buffer the consumer left unread.
func (r *queueReader) drain() {
	if r.cur != nil {
		r.cur.busy.Done()
		r.cur = nil
	}
	for b := range r.queue {
		b.busy.Done()
	}
}

// copying is a consumer that writes the stream to w.
func copying(w io.Writer) func(io.Reader) error {
	return func(r io.Reader) error {
		_, err := io.Copy(w, r)
		return err
	}
}
