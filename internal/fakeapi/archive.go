package fakeapi

import (
	"archive/tar"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"html"
	"io"
	"math/rand/v2"
	"path"
	"strings"
	"sync"
	"time"
)

// Archive decides what the bundle link of a completed job serves.
type Archive struct {
	// Size is the archive's size in bytes. The archive holds the job's pages
	// and then as many binary assets (assets/blob-NNNNN.bin, up to 1 MiB
	// each) as fit: it is never larger than Size and smaller by less than a
	// kilobyte, unless Size is below the pages' own few kilobytes, in which
	// case it holds the pages only. Zero means the pages only.
	Size int64
	// Defect breaks the archive on purpose; the zero value serves it intact.
	Defect ArchiveDefect
}

// ArchiveDefect names a way the served archive is broken.
type ArchiveDefect string

// The defects an Archive can have. Each is a complete HTTP answer (its
// Content-Length and the bundle's sizeBytes match what is sent, except for
// ArchiveOversized): the storage holds a bad object, the network did
// nothing wrong. The hostile ones are in archive_defects.go.
const (
	// ArchiveTruncated serves the first half of the archive as if it were
	// all of it: the gzip stream stops early.
	ArchiveTruncated ArchiveDefect = "truncated"
	// ArchiveCorrupt flips every bit of the archive's middle byte, so the
	// deflate stream or the gzip checksum no longer matches.
	ArchiveCorrupt ArchiveDefect = "corrupt"
)

// The archive is a real tar.gz, generated on the fly at every download and
// never held in memory. The job's pages (index.html and one HTML file per
// page) come first, deflated; the binary assets that bring it to its size
// follow in stored (uncompressed) deflate blocks, as gzip itself stores
// data that does not compress. So the archive's size is known without
// generating it, and serving it costs little more than copying bytes. The
// same job always yields the same bytes.
const (
	assetBytes      = 1 << 20 // content of a full-sized asset
	storedBlockMax  = 65535   // the most a stored deflate block holds
	storedBlockHead = 5       // BFINAL/BTYPE byte, LEN, NLEN
	tarBlock        = 512
	gzipHeaderLen   = 10
	gzipTrailerLen  = 8 // CRC-32 and ISIZE
)

// archiveLayout is a job's archive, described: enough to generate it, and
// small (the deflated pages and a list of asset sizes).
type archiveLayout struct {
	head    []byte // gzip header and the pages' tar entries, deflated and flushed
	headRaw int64  // the pages' tar entries, uncompressed
	headCRC uint32 // CRC-32 of those
	assets  []int64
	seed    uint64
	modTime time.Time
	defect  ArchiveDefect
	extra   []byte // the raw tar entries a hostile defect adds after the assets
	size    int64  // the archive's size
}

// layout returns the job's archive layout, building it on first use. The
// caller holds s.mu and has checked that the job is completed.
func (j *exportJob) layout(archiveFor func(StartRequest) Archive) *archiveLayout {
	if j.archive == nil {
		var spec Archive
		if archiveFor != nil {
			spec = archiveFor(j.req)
		}
		j.archive = newArchiveLayout(j.id, j.req, j.pageNames(), j.finishedAt(), spec)
	}
	return j.archive
}

// pageNames lists the job's page files: one per requested path, or
// page-001.html to page-NNN.html when the request named no paths.
func (j *exportJob) pageNames() []string {
	seen := map[string]bool{"index.html": true}
	var names []string
	add := func(name string) {
		if !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	}
	for _, p := range j.req.Paths {
		add(path.Clean(p) + ".html")
	}
	if len(j.req.Paths) == 0 {
		for i := 1; i <= j.plan.Pages; i++ {
			add(fmt.Sprintf("page-%03d.html", i))
		}
	}
	return names
}

func newArchiveLayout(jobID string, req StartRequest, pages []string, modTime time.Time, spec Archive) *archiveLayout {
	l := &archiveLayout{modTime: modTime.UTC().Truncate(time.Second), defect: spec.Defect}
	l.extra = hostileEntries(spec.Defect, l.modTime)
	for _, b := range []byte(jobID) {
		l.seed = l.seed*1099511628211 + uint64(b) // FNV-style: deterministic per job
	}

	var raw bytes.Buffer
	tw := tar.NewWriter(&raw)
	write := func(name, body string) {
		_ = tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: 0o644, Size: int64(len(body)), ModTime: l.modTime})
		_, _ = tw.Write([]byte(body))
	}
	write("index.html", indexPage(req, pages))
	for _, name := range pages {
		write(name, contentPage(req, strings.TrimSuffix(name, ".html")))
	}
	_ = tw.Flush() // pads the last entry; the end-of-archive blocks come last, stored
	l.headRaw = int64(raw.Len())
	l.headCRC = crc32.ChecksumIEEE(raw.Bytes())

	var head bytes.Buffer
	head.Write([]byte{0x1f, 0x8b, 8, 0})
	_ = binary.Write(&head, binary.LittleEndian, uint32(l.modTime.Unix()))
	head.Write([]byte{0, 255}) // no extra flags; OS unknown
	fw, _ := flate.NewWriter(&head, flate.BestCompression)
	_, _ = fw.Write(raw.Bytes())
	_ = fw.Flush() // byte-aligned, not final: the stored blocks continue the stream
	l.head = head.Bytes()

	l.assets = fitAssets(spec.Size-int64(len(l.head))-gzipTrailerLen, l.tailRaw())
	l.size = int64(len(l.head)) + storedSize(l.storedRaw()) + gzipTrailerLen
	return l
}

// fitAssets sizes the assets so that the stored section, assets and tail
// (tail raw bytes), takes at most avail bytes.
func fitAssets(avail, tail int64) []int64 {
	// The largest raw length r with r + 5·ceil(r/65535) <= avail.
	r := avail * storedBlockMax / (storedBlockMax + storedBlockHead)
	for r > 0 && storedSize(r) > avail {
		r--
	}
	r -= tail
	var assets []int64
	for r >= tarBlock {
		content := min(assetBytes, (r-tarBlock)/tarBlock*tarBlock)
		assets = append(assets, content)
		r -= tarBlock + content
	}
	return assets
}

// storedSize is the size of raw bytes in stored deflate blocks.
func storedSize(raw int64) int64 {
	blocks := max(1, (raw+storedBlockMax-1)/storedBlockMax)
	return raw + blocks*storedBlockHead
}

// tailRaw is the raw size of what follows the assets: the entries of a
// hostile defect, if any, and the end-of-archive blocks.
func (l *archiveLayout) tailRaw() int64 { return int64(len(l.extra)) + 2*tarBlock }

// storedRaw is the raw size of the stored section.
func (l *archiveLayout) storedRaw() int64 {
	n := l.tailRaw()
	for _, a := range l.assets {
		n += tarBlock + a
	}
	return n
}

func padded(n int64) int64 { return (n + tarBlock - 1) / tarBlock * tarBlock }

func (l *archiveLayout) generate(w io.Writer) error {
	if _, err := w.Write(l.head); err != nil {
		return err
	}
	s := newStoredWriter(w, l.headCRC, uint32(l.headRaw))
	for i, content := range l.assets {
		s.raw(ustarHeader(fmt.Sprintf("assets/blob-%05d.bin", i+1), content, l.modTime))
		start := (l.seed ^ uint64(i+1)*0x9e3779b97f4a7c15) % uint64(len(assetPool()))
		s.generate(content, func(dst []byte, at int64) { fillFromPool(dst, start+uint64(at)) })
	}
	s.raw(l.extra)
	s.raw(make([]byte, 2*tarBlock))
	return s.close()
}

// ustarHeader is the 512-byte tar header of a regular file.
func ustarHeader(name string, size int64, modTime time.Time) []byte {
	return ustarEntry(&tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: 0o644, Size: size, ModTime: modTime})
}

// ustarEntry is the 512-byte USTAR header h, which must have a short name
// and link name.
func ustarEntry(h *tar.Header) []byte {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	h.Format = tar.FormatUSTAR // one block, written at once
	_ = tw.WriteHeader(h)
	return buf.Bytes()[:tarBlock]
}

// assetPool is the pseudo-random data that assets are cut from: generated
// once from a fixed seed, so every archive is the same on every machine.
var assetPool = sync.OnceValue(func() []byte {
	pool := make([]byte, 1<<20)
	_, _ = rand.NewChaCha8([32]byte{'m', 'i', 'n', 't', 'l', 'i', 'f', 'y'}).Read(pool)
	return pool
})

// fillFromPool fills dst with the pool's bytes from offset at, wrapping.
func fillFromPool(dst []byte, at uint64) {
	pool := assetPool()
	off := int(at % uint64(len(pool)))
	for len(dst) > 0 {
		n := copy(dst, pool[off:])
		dst, off = dst[n:], 0
	}
}

// storedWriter writes raw bytes as stored deflate blocks of 65535 bytes
// (the last one shorter and final), then the gzip trailer.
type storedWriter struct {
	w     io.Writer
	buf   []byte // the block header, then up to 65535 raw bytes
	n     int    // raw bytes in buf
	crc   uint32
	isize uint32
	err   error
}

func newStoredWriter(w io.Writer, crc, isize uint32) *storedWriter {
	return &storedWriter{w: w, buf: make([]byte, storedBlockHead+storedBlockMax), crc: crc, isize: isize}
}

// raw appends p.
func (s *storedWriter) raw(p []byte) {
	s.generate(int64(len(p)), func(dst []byte, at int64) { copy(dst, p[at:]) })
}

// generate appends n bytes that fill produces, at most a block at a time
// (at is the offset of dst within the n bytes).
func (s *storedWriter) generate(n int64, fill func(dst []byte, at int64)) {
	for at := int64(0); at < n && s.err == nil; {
		if s.n == storedBlockMax {
			s.flush(false)
			continue
		}
		dst := s.buf[storedBlockHead+s.n : storedBlockHead+min(storedBlockMax, s.n+int(n-at))]
		fill(dst, at)
		s.crc = crc32.Update(s.crc, crc32.IEEETable, dst)
		s.isize += uint32(len(dst))
		s.n += len(dst)
		at += int64(len(dst))
	}
}

func (s *storedWriter) flush(final bool) {
	if s.err != nil {
		return
	}
	s.buf[0] = 0
	if final {
		s.buf[0] = 1
	}
	binary.LittleEndian.PutUint16(s.buf[1:], uint16(s.n))
	binary.LittleEndian.PutUint16(s.buf[3:], ^uint16(s.n))
	_, s.err = s.w.Write(s.buf[:storedBlockHead+s.n])
	s.n = 0
}

// close writes the final block and the gzip trailer.
func (s *storedWriter) close() error {
	s.flush(true)
	if s.err != nil {
		return s.err
	}
	var trailer [gzipTrailerLen]byte
	binary.LittleEndian.PutUint32(trailer[:4], s.crc)
	binary.LittleEndian.PutUint32(trailer[4:], s.isize)
	_, err := s.w.Write(trailer[:])
	return err
}

func indexPage(req StartRequest, pages []string) string {
	var links strings.Builder
	for _, name := range pages {
		fmt.Fprintf(&links, "<li><a href=\"%s\">%s</a></li>\n", html.EscapeString(name), html.EscapeString(strings.TrimSuffix(name, ".html")))
	}
	return htmlDoc(req.Domain, "Static export of "+req.Domain+versionSuffix(req), "<ul>\n"+links.String()+"</ul>")
}

func contentPage(req StartRequest, page string) string {
	source := "https://" + req.Domain + "/" + page
	return htmlDoc(page+" · "+req.Domain, page, "<p>Exported from "+html.EscapeString(source+versionSuffix(req))+".</p>")
}

func versionSuffix(req StartRequest) string {
	if req.Version == "" {
		return ""
	}
	return " (version " + req.Version + ")"
}

// htmlDoc wraps an already-escaped body in a minimal HTML page.
func htmlDoc(title, heading, body string) string {
	return "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>" + html.EscapeString(title) +
		"</title></head>\n<body><h1>" + html.EscapeString(heading) + "</h1>\n" + body + "\n</body></html>\n"
}
