package fakeapi

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"
)

// The restrictions of an admin API key (API.md, "Why a request is
// refused"): an expiry (401 from then on), an IP allowlist (403 from any
// other address) and the read scope (403 on anything but GET and HEAD).
// The API's error text for these is not documented: by default the fake
// says which restriction refused the request, in words of its own;
// KeyOptions.BareRefusals makes every 401 and 403 say only "Unauthorized" or
// "Forbidden", so that tests see both kinds of answer.

// KeyLimits are what an admin API key was created with.
type KeyLimits struct {
	// ExpiresAt, when set, is when the key expires on the server's clock:
	// from then on every request answers 401.
	ExpiresAt time.Time
	// AllowedIPs, when set, are the addresses and CIDR ranges the key may
	// be used from: a request from any other answers 403. Tests reach the
	// fake over loopback, so an allowlist without 127.0.0.1 refuses them.
	AllowedIPs []string
	// ReadOnly gives the key the read scope only: every request but GET
	// and HEAD answers 403.
	ReadOnly bool
	// NoAPIAccess puts the key's organization on a plan without access to
	// the admin API: every request answers 401.
	NoAPIAccess bool
}

// SetKeyLimits replaces the key's limits from now on, as when a key is
// replaced by a new one with other limits under the same name.
func (s *Server) SetKeyLimits(limits KeyLimits) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keyLimits = limits
}

// keyRefusal returns the status and text with which the key's limits refuse
// r, or 0 when they allow it.
func (s *Server) keyRefusal(r *http.Request) (int, string) {
	s.mu.Lock()
	limits := s.keyLimits
	s.mu.Unlock()
	now := s.clock.Now()
	if !limits.ExpiresAt.IsZero() && !now.Before(limits.ExpiresAt) {
		return http.StatusUnauthorized, fmt.Sprintf("API key expired at %s", limits.ExpiresAt.UTC().Format(timeLayout))
	}
	if limits.NoAPIAccess {
		return http.StatusUnauthorized, "Your plan does not include API access. Upgrade to a Pro or Enterprise plan."
	}
	if len(limits.AllowedIPs) > 0 {
		addr := remoteAddr(r)
		if !allowed(addr, limits.AllowedIPs) {
			return http.StatusForbidden, fmt.Sprintf("Request from IP address %s is not on the allowlist of this API key", addr)
		}
	}
	if limits.ReadOnly && r.Method != http.MethodGet && r.Method != http.MethodHead {
		return http.StatusForbidden, fmt.Sprintf("This API key is read-only: %s needs the write scope", r.Method)
	}
	return 0, ""
}

// remoteAddr is the address r came from, or the zero address when unknown.
func remoteAddr(r *http.Request) netip.Addr {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	addr, _ := netip.ParseAddr(host)
	return addr.Unmap()
}

// allowed reports whether addr is one of list's addresses or in one of its
// CIDR ranges.
func allowed(addr netip.Addr, list []string) bool {
	for _, entry := range list {
		if strings.Contains(entry, "/") {
			if p, err := netip.ParsePrefix(entry); err == nil && p.Contains(addr) {
				return true
			}
		} else if a, err := netip.ParseAddr(entry); err == nil && a == addr {
			return true
		}
	}
	return false
}

// refuse answers a 401 or 403 with message, or with the status's bare text
// under KeyOptions.BareRefusals.
func (s *Server) refuse(w http.ResponseWriter, status int, message string) {
	if s.bareRefusals {
		message = http.StatusText(status)
	}
	writeError(w, status, message)
}
