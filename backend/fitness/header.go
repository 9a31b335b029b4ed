package fitness

import (
	"net/http"
)

// Header marks the check's HTTP requests, so a server log, a proxy or Hearth's
// scripted test server can tell them from chats. Servers ignore it.
const Header = "X-Hearth-Check"

// HTTPClientOver is an HTTP client for a check's provider over base (Hearth's egress
// guard): it adds Header to every request.
func HTTPClientOver(base http.RoundTripper) *http.Client {
	return &http.Client{Transport: marked{base}}
}

type marked struct{ next http.RoundTripper }

func (m marked) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(Header, "fitness")
	return m.next.RoundTrip(r)
}
