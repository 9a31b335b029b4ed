package egress

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"

	"golang.org/x/net/http/httpproxy"
)

// ProxyFunc picks the proxy for a request's URL (nil: connect directly), the
// shape of httpproxy.Config.ProxyFunc.
type ProxyFunc func(*url.URL) (*url.URL, error)

// envProxy reads HTTP_PROXY, HTTPS_PROXY and NO_PROXY at every request. net/http's
// ProxyFromEnvironment reads them once per process, so a change (or a test's
// t.Setenv) would go unseen.
func envProxy(u *url.URL) (*url.URL, error) {
	return httpproxy.FromEnvironment().ProxyFunc()(u)
}

// proxy is the transport's Proxy. In local-only mode it never picks one: the
// request then dials its own host, which the dialer judges, so a proxy on this
// machine cannot carry a request to a host that is not. Otherwise the proxy from
// the environment is used, and the request is logged under its destination with
// the proxy named, since the dial itself only sees the proxy's address.
func (g *Guard) proxy(purpose string) func(*http.Request) (*url.URL, error) {
	return func(r *http.Request) (*url.URL, error) {
		if g.LocalOnly() || Loopback(r.URL.Hostname()) {
			// A proxy could not reach this machine's loopback on our behalf anyway.
			return nil, nil
		}
		pick := g.opts.Proxy
		if pick == nil {
			pick = envProxy
		}
		p, err := pick(r.URL)
		if err != nil || p == nil {
			return p, err
		}
		dest := hostPort(r.URL)
		via := hostPort(p)
		g.mu.Lock()
		if g.proxies == nil {
			g.proxies = map[string]bool{}
		}
		g.proxies[purpose+" "+via] = true
		g.mu.Unlock()
		g.record(Entry{Time: g.opts.Now(), Host: dest, Via: via, Purpose: purpose, Local: g.local(dest)})
		return p, nil
	}
}

// viaProxy reports whether addr is a proxy a request of purpose was sent through: its
// connections are logged per request, under the destination (see proxy).
func (g *Guard) viaProxy(purpose, addr string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.proxies[purpose+" "+addr]
}

// hostPort is u's host:port, the port filled in from the scheme.
func hostPort(u *url.URL) string {
	port := u.Port()
	if port == "" {
		switch strings.ToLower(u.Scheme) {
		case "https":
			port = "443"
		case "socks5", "socks5h":
			port = "1080"
		default:
			port = "80"
		}
	}
	return net.JoinHostPort(u.Hostname(), port)
}

// dialHost is the Guard's own dialer. "localhost" and names under .localhost are
// this machine by definition: they are dialled at the loopback addresses without
// asking a resolver, so no DNS query for them leaves the machine (a resolver
// could answer with any address, and the query itself tells the network the name).
func (g *Guard) dialHost(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || !localName(host) {
		return g.dialer.DialContext(ctx, network, addr)
	}
	var first error
	for _, ip := range []string{"127.0.0.1", "::1"} {
		if (network == "tcp4" && ip == "::1") || (network == "tcp6" && ip == "127.0.0.1") {
			continue
		}
		c, err := g.dialer.DialContext(ctx, network, net.JoinHostPort(ip, port))
		if err == nil {
			return c, nil
		}
		if first == nil {
			first = err
		}
		if ctx.Err() != nil {
			break
		}
	}
	if first == nil {
		first = errors.New("no loopback address for " + network)
	}
	return nil, first
}

// localName reports whether host is "localhost" or a name under .localhost.
func localName(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	return host == "localhost" || strings.HasSuffix(host, ".localhost")
}
