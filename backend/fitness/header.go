package fitness

import (
	"net"
	"net/http"
	"time"
)

// Header marks the check's HTTP requests, so a server log, a proxy or Hearth's
// scripted test server can tell them from chats. Servers ignore it.
const Header = "X-Hearth-Check"

// HTTPClient is an HTTP client for a check's provider: it adds Header to every
// request and, like the providers' own client, gives up dialling after 5 s but
// never cuts a stream (each probe has its own deadline).
func HTTPClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	return &http.Client{Transport: marked{t}}
}

// HTTPClientOver is HTTPClient over another transport (Hearth's egress guard).
func HTTPClientOver(base http.RoundTripper) *http.Client {
	return &http.Client{Transport: marked{base}}
}

type marked struct{ next http.RoundTripper }

func (m marked) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(Header, "fitness")
	return m.next.RoundTrip(r)
}
