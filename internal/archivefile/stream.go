package archivefile

import (
	"errors"
	"fmt"
	"io"
)

// The reading of the decompressed stream, block by block, within the
// bounds of limits.

// readBlock reads the next block into blk. It reports end at an all-zero
// block, the end-of-archive marker, and at the stream's end between
// entries.
func (c *checker) readBlock() (bool, error) {
	n, err := io.ReadFull(c.gz, c.blk[:])
	c.out += int64(n)
	switch {
	case errors.Is(err, io.EOF):
		return true, nil
	case err != nil:
		return false, explain(err, c.where())
	}
	if err := c.bounded(); err != nil {
		return false, err
	}
	if magic := filterMagic(c.blk[:]); magic != "" && c.out == blockSize {
		return false, c.refuse(cString(c.blk[offName:offMode]), fmt.Sprintf("the tar stream starts with %s's magic, so "+
			"bsdtar would decompress it again as %s instead of reading the tar (the first header's name may not start so)", magic, magic))
	}
	return allZero(c.blk[:]), nil
}

// read fills p from the stream.
func (c *checker) read(p []byte) error {
	n, err := io.ReadFull(c.gz, p)
	c.out += int64(n)
	if err != nil {
		return explain(err, c.where())
	}
	return c.bounded()
}

// skip reads an entry's content and its padding, which must be zeros.
func (c *checker) skip(name string, size int64) error {
	c.current = name
	defer func() { c.current = "" }()
	if c.buf == nil {
		c.buf = make([]byte, 64<<10)
	}
	if err := c.discard(size); err != nil {
		return err
	}
	pad := c.buf[:padded(size)-size]
	if err := c.read(pad); err != nil {
		return err
	}
	if !allZero(pad) {
		return c.refuse(name, "its data's padding (after its size, to the end of the block) is not zeros")
	}
	return nil
}

// discard reads n bytes of content.
func (c *checker) discard(n int64) error {
	for left := n; left > 0; {
		if err := c.ctx.Err(); err != nil {
			return err
		}
		chunk := c.buf[:min(left, int64(len(c.buf)))]
		if err := c.read(chunk); err != nil {
			return err
		}
		left -= int64(len(chunk))
	}
	return nil
}

// trailer reads what follows the end-of-archive marker to the stream's
// end (gzip then checks its checksum and length): zeros only, which may
// end in a block cut short. A block that is not zeros is refused, named
// after the entry its header would be.
func (c *checker) trailer() error {
	for {
		n, err := fillBlock(c.gz, &c.blk)
		c.out += int64(n)
		if !allZero(c.blk[:n]) {
			name := ""
			if n == blockSize {
				name = cString(c.blk[offName:offMode])
			}
			return c.refuse(name, "it comes after the end-of-archive marker, where only zeros may be (some readers stop at the marker, others read on)")
		}
		if errors.Is(err, io.EOF) {
			if n%blockSize != 0 { // BusyBox tar fails on it: "short read"
				return &InvalidError{refused: true, Reason: fmt.Sprintf("after its end-of-archive marker (after %d entries) it "+
					"ends inside a %d-byte block, which some readers fail on", c.entries, blockSize)}
			}
			return nil
		}
		if err != nil {
			return explain(err, "after the last entry")
		}
		if err := c.bounded(); err != nil {
			return err
		}
	}
}

// fillBlock reads into b until it is full or r fails, and returns r's own
// error: io.EOF at the stream's end, whether or not b is full.
func fillBlock(r io.Reader, b *[blockSize]byte) (int, error) {
	n := 0
	for n < blockSize {
		m, err := r.Read(b[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// bounded checks the decompressed size so far against the limits.
func (c *checker) bounded() error {
	rule := c.lim.exceeded(c.out, c.in.n)
	if rule == "" {
		return nil
	}
	if c.current != "" {
		return c.refuse(c.current, rule)
	}
	return &InvalidError{refused: true, Reason: rule}
}

// exceeded says which bound out decompressed bytes after in bytes of the
// archive break, or "".
func (lim limits) exceeded(out, in int64) string {
	switch {
	case out > lim.ceiling:
		return fmt.Sprintf("decompressed, the archive may not be larger than %s", sizeText(lim.ceiling))
	case out > lim.ratio*in+lim.slack:
		return fmt.Sprintf("decompressed, the archive may not be larger than %d times its size plus %s (it is %d bytes "+
			"after %d bytes of it)", lim.ratio, sizeText(lim.slack), out, in)
	}
	return ""
}

// padded is size rounded up to whole blocks.
func padded(size int64) int64 { return (size + blockSize - 1) &^ (blockSize - 1) }

// sizeText spells a power-of-two size.
func sizeText(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
