package main

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// providerType is the provider's type in every registry address.
const providerType = "mintlify"

// published is one set of files the registry serves for the release: the
// genuine release, or one of the broken ones of the negative cases.
type published struct {
	zip, sums, sig []byte
	// key is the key the registry advertises for the release.
	key *gpgKey
}

// registry implements the provider registry protocol on loopback over
// HTTPS: service discovery, the versions list and the download endpoint
// with the zip, SHA256SUMS, its signature and the public key. Each
// namespace serves one set of files: mintlify/mintlify is the genuine
// release.
type registry struct {
	host      string // localhost:PORT
	version   string
	protocols []string
	zipName   string
	sumsName  string
	releases  map[string]published
}

// serveRegistry serves g with a certificate for localhost and 127.0.0.1
// from a CA made for the run, which it writes as PEM to caFile, and
// returns the function that stops the server.
func serveRegistry(g *registry, caFile string) (func() error, error) {
	cert, caPEM, err := newServerCertificate()
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(caFile, caPEM, 0o600); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	_, port, err := net.SplitHostPort(ln.Addr().String())
	if err != nil {
		return nil, errors.Join(err, ln.Close())
	}
	g.host = "localhost:" + port
	srv := &http.Server{
		Handler:           g.handler(),
		ReadHeaderTimeout: 10 * time.Second,
		TLSConfig:         &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12},
	}
	go func() { _ = srv.ServeTLS(ln, "", "") }()
	return srv.Close, nil
}

func (g *registry) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/terraform.json", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, map[string]string{"providers.v1": "/v1/providers/"})
	})
	mux.HandleFunc("GET /v1/providers/{namespace}/{type}/versions", g.versions)
	mux.HandleFunc("GET /v1/providers/{namespace}/{type}/{version}/download/{os}/{arch}", g.download)
	mux.HandleFunc("GET /files/{namespace}/{name}", g.file)
	return mux
}

// release returns the files of the request's namespace and type.
func (g *registry) release(w http.ResponseWriter, req *http.Request) (published, bool) {
	rel, ok := g.releases[req.PathValue("namespace")]
	if !ok || req.PathValue("type") != providerType {
		w.WriteHeader(http.StatusNotFound)
		writeJSON(w, map[string][]string{"errors": {"Not Found"}})
	}
	return rel, ok
}

func (g *registry) versions(w http.ResponseWriter, req *http.Request) {
	if _, ok := g.release(w, req); !ok {
		return
	}
	platform := map[string]string{"os": runtime.GOOS, "arch": runtime.GOARCH}
	writeJSON(w, map[string]any{"versions": []any{
		map[string]any{"version": g.version, "protocols": g.protocols, "platforms": []any{platform}},
	}})
}

func (g *registry) download(w http.ResponseWriter, req *http.Request) {
	rel, ok := g.release(w, req)
	if !ok {
		return
	}
	if req.PathValue("version") != g.version || req.PathValue("os") != runtime.GOOS || req.PathValue("arch") != runtime.GOARCH {
		w.WriteHeader(http.StatusNotFound)
		writeJSON(w, map[string][]string{"errors": {"Not Found"}})
		return
	}
	files := "/files/" + req.PathValue("namespace") + "/"
	writeJSON(w, map[string]any{
		"protocols": g.protocols,
		"os":        runtime.GOOS,
		"arch":      runtime.GOARCH,
		"filename":  g.zipName,
		// Relative links, as a registry may give them.
		"download_url":          files + g.zipName,
		"shasums_url":           files + g.sumsName,
		"shasums_signature_url": files + g.sumsName + ".sig",
		// The hash the release's SHA256SUMS lists, as a registry records it
		// at publication: a zip changed afterwards does not match it.
		"shasum": rel.zipHash(g.zipName),
		"signing_keys": map[string]any{"gpg_public_keys": []any{
			map[string]string{"key_id": rel.key.keyID(), "ascii_armor": rel.key.armored},
		}},
	})
}

// file serves the zip, SHA256SUMS and the signature, to GET and HEAD
// (Terraform 1.11 asks for the zip with HEAD first).
func (g *registry) file(w http.ResponseWriter, req *http.Request) {
	rel, ok := g.releases[req.PathValue("namespace")]
	content := map[string][]byte{g.zipName: rel.zip, g.sumsName: rel.sums, g.sumsName + ".sig": rel.sig}[req.PathValue("name")]
	if !ok || content == nil {
		http.NotFound(w, req)
		return
	}
	http.ServeContent(w, req, req.PathValue("name"), time.Time{}, bytes.NewReader(content))
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// newServerCertificate makes a CA and a certificate it signs for localhost
// and 127.0.0.1, both valid for a day; it returns the server's certificate
// and key, and the CA certificate as PEM, for SSL_CERT_FILE.
func newServerCertificate() (tls.Certificate, []byte, error) {
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	now := time.Now()
	caTemplate := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "Mintlify provider release rehearsal CA (throwaway)"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTemplate, caTemplate, &caKey.PublicKey, caKey)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	leaf := &x509.Certificate{
		SerialNumber: big.NewInt(2),
		Subject:      pkix.Name{CommonName: "localhost"},
		DNSNames:     []string{"localhost"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	leafDER, err := x509.CreateCertificate(rand.Reader, leaf, ca, &key.PublicKey, caKey)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	caPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER})
	return tls.Certificate{Certificate: [][]byte{leafDER}, PrivateKey: key}, caPEM, nil
}

// The namespaces of the negative cases, and the genuine release's.
const (
	genuine        = "mintlify"
	tamperedZip    = "tampered-zip"
	wrongSignature = "wrong-signature"
	unknownKey     = "unknown-key"
)

// newRegistry lays out the genuine release from build b and the broken
// ones: a zip with one byte changed (its SHA256SUMS and signature
// genuine); that zip with a SHA256SUMS recomputed for it under the genuine
// signature; and the genuine files with SHA256SUMS signed by stranger
// while the registry advertises the release key.
func (r *rehearsal) newRegistry(ctx context.Context, b *releaseBuild, stranger *gpgKey) (*registry, error) {
	manifest, err := os.ReadFile(filepath.Join(b.clone, "terraform-registry-manifest.json"))
	if err != nil {
		return nil, err
	}
	var m struct {
		Metadata struct {
			ProtocolVersions []string `json:"protocol_versions"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(manifest, &m); err != nil || len(m.Metadata.ProtocolVersions) == 0 {
		return nil, fmt.Errorf("terraform-registry-manifest.json names no protocol_versions (%v)", err)
	}
	tampered := bytes.Clone(b.zip)
	tampered[len(tampered)/2] ^= 0xff
	oldSum, newSum := sha256.Sum256(b.zip), sha256.Sum256(tampered)
	recomputed := bytes.Replace(b.sums, []byte(hex.EncodeToString(oldSum[:])), []byte(hex.EncodeToString(newSum[:])), 1)
	strangerSig, err := stranger.sign(ctx, filepath.Join(b.dist, b.sumsName))
	if err != nil {
		return nil, err
	}
	return &registry{
		version:   r.version,
		protocols: m.Metadata.ProtocolVersions,
		zipName:   b.zipName,
		sumsName:  b.sumsName,
		releases: map[string]published{
			genuine:        {zip: b.zip, sums: b.sums, sig: b.sig, key: r.key},
			tamperedZip:    {zip: tampered, sums: b.sums, sig: b.sig, key: r.key},
			wrongSignature: {zip: tampered, sums: recomputed, sig: b.sig, key: r.key},
			unknownKey:     {zip: b.zip, sums: b.sums, sig: strangerSig, key: r.key},
		},
	}, nil
}

// zipHash is the SHA-256 that the release's SHA256SUMS lists for the zip.
func (p published) zipHash(zipName string) string {
	for hash, name := range sumsLines(p.sums) {
		if name == zipName {
			return hash
		}
	}
	return ""
}

// sumsLines is the file names SHA256SUMS lists, by hash.
func sumsLines(sums []byte) map[string]string {
	lines := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(sums)), "\n") {
		if hash, name, ok := strings.Cut(line, "  "); ok {
			lines[hash] = name
		}
	}
	return lines
}
