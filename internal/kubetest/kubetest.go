// Package kubetest starts a real Kubernetes API server for tests: etcd and
// kube-apiserver from the unpacked tools, on free loopback ports, in a
// temporary directory, with a bearer token and generated keys. Nothing runs
// a pod (there is no kubelet and no controller): objects are stored and can
// be read back, which is what a Helm release needs to install, upgrade and
// uninstall. Objects are read with net/http and the token.
//
// The binaries are found through MINTLIFY_KUBE_APISERVER and MINTLIFY_ETCD,
// then in MINTLIFY_TOOLS_DIR, then in ~/.cache/mintlify-tools, where
// ../shared/tools/unpack puts them. A missing binary fails the test.
package kubetest

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The tool versions that ../shared/tools ships, and the file names that
// its unpack script gives them.
const (
	KubeAPIServerVersion = "1.34.4"
	EtcdVersion          = "3.6.16"
)

// The variables that point at the binaries.
const (
	KubeAPIServerEnv = "MINTLIFY_KUBE_APISERVER"
	EtcdEnv          = "MINTLIFY_ETCD"
)

// startTimeout bounds the wait for /readyz. The API server is ready in
// about two seconds on an idle machine; a loaded one takes longer.
const startTimeout = 2 * time.Minute

// Cluster is a running API server and its etcd. Start stops both and
// removes their directory when the test ends.
type Cluster struct {
	// URL is the API server's base URL, https://127.0.0.1:PORT.
	URL string
	// Kubeconfig is the path of a kubeconfig for the cluster, with the
	// token and the serving certificate's authority, for the helm
	// provider's `kubernetes = { config_path = ... }` or KUBE_CONFIG_PATH.
	Kubeconfig string

	dir    string
	token  string
	client *http.Client
	procs  []*process // in start order; stopped in reverse
}

// Start starts etcd and kube-apiserver and returns once /readyz answers
// 200. It fails t, with the tail of both logs, when a binary is missing or
// the server is not ready within two minutes. Both processes are stopped
// and the directory removed in t.Cleanup.
func Start(t testing.TB) *Cluster {
	t.Helper()
	apiserver, err := findBinary(KubeAPIServerEnv, "kube-apiserver-"+KubeAPIServerVersion)
	if err != nil {
		t.Fatal(err)
	}
	etcd, err := findBinary(EtcdEnv, "etcd-"+EtcdVersion)
	if err != nil {
		t.Fatal(err)
	}
	// Registered first, so that it runs last: after the processes stopped.
	dir := t.TempDir()
	files, err := writeCredentials(dir)
	if err != nil {
		t.Fatal(err)
	}
	ports, err := freePorts(3)
	if err != nil {
		t.Fatal(err)
	}
	c := &Cluster{
		URL:        "https://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(ports[2])),
		Kubeconfig: filepath.Join(dir, "kubeconfig"),
		dir:        dir,
		token:      files.token,
		client:     &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: files.roots, MinVersion: tls.VersionTLS12}}},
	}
	t.Cleanup(func() {
		c.client.CloseIdleConnections()
		for i := len(c.procs) - 1; i >= 0; i-- {
			if err := c.procs[i].stop(); err != nil {
				t.Errorf("stopping %s: %v", c.procs[i].name, err)
			}
		}
	})

	etcdURL := "http://127.0.0.1:" + strconv.Itoa(ports[0])
	peerURL := "http://127.0.0.1:" + strconv.Itoa(ports[1])
	if err := c.spawn("etcd", etcd,
		"--data-dir", filepath.Join(dir, "etcd"),
		"--listen-client-urls", etcdURL, "--advertise-client-urls", etcdURL,
		"--listen-peer-urls", peerURL, "--initial-advertise-peer-urls", peerURL,
		"--initial-cluster", "default="+peerURL,
		// Nothing here needs to survive a crash of the machine.
		"--unsafe-no-fsync",
	); err != nil {
		t.Fatal(err)
	}
	if err := c.spawn("kube-apiserver", apiserver,
		"--etcd-servers="+etcdURL,
		"--secure-port="+strconv.Itoa(ports[2]),
		"--bind-address=127.0.0.1", "--advertise-address=127.0.0.1",
		"--service-cluster-ip-range=10.0.0.0/24",
		"--cert-dir="+filepath.Join(dir, "certs"),
		"--tls-cert-file="+files.servingCert, "--tls-private-key-file="+files.servingKey,
		"--token-auth-file="+files.tokens,
		"--authorization-mode=AlwaysAllow",
		"--service-account-issuer=https://kubernetes.default.svc",
		"--service-account-key-file="+files.serviceAccountPub,
		"--service-account-signing-key-file="+files.serviceAccountKey,
		"--disable-admission-plugins=ServiceAccount",
		"--enable-priority-and-fairness=false",
	); err != nil {
		t.Fatal(err)
	}
	if err := c.waitReady(startTimeout); err != nil {
		// Nothing to shut down gracefully: kill both, then show their logs.
		for _, p := range c.procs {
			p.kill()
		}
		t.Fatalf("the Kubernetes API server did not start: %v\n\n%s", err, c.logTails())
	}
	if err := os.WriteFile(c.Kubeconfig, []byte(kubeconfig(c.URL, files.caPEM, c.token)), 0o600); err != nil {
		t.Fatal(err)
	}
	return c
}

// findBinary returns the binary named by the variable env, or else file in
// MINTLIFY_TOOLS_DIR or ~/.cache/mintlify-tools.
func findBinary(env, file string) (string, error) {
	if path := os.Getenv(env); path != "" {
		if fi, err := os.Stat(path); err != nil || fi.IsDir() {
			return "", fmt.Errorf("%s=%s: not a file: the cluster tests need %s there", env, path, file)
		}
		return filepath.Abs(path)
	}
	var candidates []string
	if dir := os.Getenv("MINTLIFY_TOOLS_DIR"); dir != "" {
		candidates = append(candidates, filepath.Join(dir, file))
	}
	if home, err := os.UserHomeDir(); err == nil {
		candidates = append(candidates, filepath.Join(home, ".cache", "mintlify-tools", file))
	}
	for _, c := range candidates {
		if fi, err := os.Stat(c); err == nil && !fi.IsDir() {
			return filepath.Abs(c)
		}
	}
	return "", fmt.Errorf("the cluster tests need %s and found it in none of %s: run `make test-compat` "+
		"(which unpacks ../shared/tools), or set %s to the binary", file, strings.Join(candidates, ", "), env)
}

// freePorts returns n distinct loopback ports that were free a moment ago:
// all are held open together, so none is given twice.
func freePorts(n int) ([]int, error) {
	var ports []int
	var listeners []net.Listener
	defer func() {
		for _, l := range listeners {
			_ = l.Close()
		}
	}()
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		listeners = append(listeners, l)
		addr, ok := l.Addr().(*net.TCPAddr)
		if !ok {
			return nil, fmt.Errorf("unexpected listener address %v", l.Addr())
		}
		ports = append(ports, addr.Port)
	}
	return ports, nil
}

// waitReady polls /readyz until it answers 200, a process exits, or
// timeout passes.
func (c *Cluster) waitReady(timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		// A server still starting may accept a connection and answer late.
		poll, cancelPoll := context.WithTimeout(ctx, 2*time.Second)
		status, last := c.get(poll, "/readyz", nil)
		cancelPoll()
		switch {
		case last == nil && status == http.StatusOK:
			return nil
		case last == nil:
			last = fmt.Errorf("/readyz answered HTTP %d", status)
		}
		for _, p := range c.procs {
			select {
			case <-p.exited:
				return fmt.Errorf("%s exited: %v", p.name, p.err)
			default:
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("not ready within %s; last: %v", timeout, last)
		case <-tick.C:
		}
	}
}

// logTails returns the last lines each process wrote.
func (c *Cluster) logTails() string {
	var b strings.Builder
	for _, p := range c.procs {
		fmt.Fprintf(&b, "--- the last lines of %s's log:\n%s\n", p.name, tail(p.log, 40))
	}
	return b.String()
}

// StatusError is an answer other than 2xx, with the API's message.
type StatusError struct {
	Method, Path string
	Code         int
	Message      string
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("%s %s: HTTP %d: %s", e.Method, e.Path, e.Code, e.Message)
}

// IsNotFound reports whether err is an HTTP 404 from the API server.
func IsNotFound(err error) bool {
	var se *StatusError
	return errors.As(err, &se) && se.Code == http.StatusNotFound
}

// Get reads the object or list at path (such as
// /api/v1/namespaces/docs/configmaps/mintlify) into out, which may be nil.
// An answer other than 2xx is a *StatusError.
func (c *Cluster) Get(ctx context.Context, path string, out any) error {
	return c.Do(ctx, http.MethodGet, path, nil, out)
}

// Create posts obj to the collection at path, such as /api/v1/namespaces.
func (c *Cluster) Create(ctx context.Context, path string, obj any) error {
	return c.Do(ctx, http.MethodPost, path, obj, nil)
}

// Do sends one request with the token: body, when not nil, as JSON; the
// answer decoded into out, when not nil.
func (c *Cluster) Do(ctx context.Context, method, path string, body, out any) error {
	var payload io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return err
		}
		payload = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.URL+path, payload)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		var status struct{ Message string }
		if json.Unmarshal(raw, &status) != nil || status.Message == "" {
			status.Message = strings.TrimSpace(string(raw))
		}
		return &StatusError{Method: method, Path: path, Code: resp.StatusCode, Message: status.Message}
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(raw, out)
}

// get is Do for the readiness poll: the status, and no error for a non-2xx
// answer.
func (c *Cluster) get(ctx context.Context, path string, out any) (int, error) {
	err := c.Do(ctx, http.MethodGet, path, nil, out)
	var se *StatusError
	if errors.As(err, &se) {
		return se.Code, nil
	}
	if err != nil {
		return 0, err
	}
	return http.StatusOK, nil
}

// Query is path with a query string, such as a label selector.
func Query(path string, params map[string]string) string {
	q := url.Values{}
	for k, v := range params {
		q.Set(k, v)
	}
	return path + "?" + q.Encode()
}

// kubeconfig is a kubeconfig for server, trusting ca, with token.
func kubeconfig(server string, caPEM []byte, token string) string {
	return fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
  - name: kubetest
    cluster:
      server: %s
      certificate-authority-data: %s
users:
  - name: admin
    user:
      token: %s
contexts:
  - name: kubetest
    context:
      cluster: kubetest
      user: admin
current-context: kubetest
`, server, base64Std(caPEM), token)
}
