package fakeapi

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"html"
	"path"
	"strings"
	"time"
)

// bundle returns the job's archive, building it on first use. The caller
// holds s.mu and has checked that the job is completed.
func (j *exportJob) bundle() []byte {
	if j.archive == nil {
		j.archive = buildArchive(j.req, j.pageNames(), j.finishedAt())
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

// buildArchive renders a small, deterministic site as a gzip'd tar:
// index.html linking to one HTML file per page. Entries are dated at the
// job's completion, so the same job always yields the same bytes.
func buildArchive(req StartRequest, pages []string, modTime time.Time) []byte {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	write := func(name, body string) {
		_ = tw.WriteHeader(&tar.Header{
			Typeflag: tar.TypeReg,
			Name:     name,
			Mode:     0o644,
			Size:     int64(len(body)),
			ModTime:  modTime.UTC().Truncate(time.Second),
		})
		_, _ = tw.Write([]byte(body))
	}
	write("index.html", indexPage(req, pages))
	for _, name := range pages {
		write(name, contentPage(req, strings.TrimSuffix(name, ".html")))
	}
	// Writes to a bytes.Buffer cannot fail.
	_ = tw.Close()
	_ = gz.Close()
	return buf.Bytes()
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
