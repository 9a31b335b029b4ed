package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"hearth/backend/tools"
)

// fakeResolver answers from a table; a name with several answer lists gives
// the next list on each lookup (the last one repeats): DNS rebinding.
type fakeResolver struct {
	mu      sync.Mutex
	answers map[string][][]string
	calls   map[string]int
}

func newResolver(answers map[string][][]string) *fakeResolver {
	return &fakeResolver{answers: answers, calls: map[string]int{}}
}

func (r *fakeResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	lists, ok := r.answers[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	i := min(r.calls[host], len(lists)-1)
	r.calls[host]++
	var out []netip.Addr
	for _, s := range lists[i] {
		out = append(out, netip.MustParseAddr(s))
	}
	return out, nil
}

func (r *fakeResolver) total() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, c := range r.calls {
		n += c
	}
	return n
}

func TestSSRFTable(t *testing.T) {
	res := newResolver(map[string][][]string{
		"localhost":        {{"127.0.0.1", "::1"}},
		"intranet.test":    {{"10.0.0.5"}},
		"mixed.test":       {{"93.184.216.34", "192.168.1.10"}},
		"public.test":      {{"93.184.216.34"}},
		"public6.test":     {{"2606:4700:4700::1111"}},
		"metadata.test":    {{"169.254.169.254"}},
		"mapped.test":      {{"::ffff:10.1.2.3"}},
		"allowed-lan.test": {{"192.168.50.7"}},
	})
	g, err := NewGuard([]string{"192.168.50.0/24"}, res)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		host    string
		blocked bool
	}{
		{"127.0.0.1", true},
		{"127.255.255.254", true},
		{"localhost", true},
		{"0.0.0.0", true},
		{"0", true},
		{"10.1.2.3", true},
		{"172.16.0.1", true},
		{"172.31.255.255", true},
		{"192.168.1.1", true},
		{"100.64.0.1", true},
		{"169.254.169.254", true}, // cloud metadata
		{"metadata.test", true},
		{"169.254.10.20", true}, // link-local
		{"224.0.0.1", true},
		{"255.255.255.255", true},
		{"::1", true},
		{"[::1]", true},
		{"[fe80::1]", true},
		{"fd00:ec2::254", true}, // AWS metadata over IPv6
		{"fc00::1", true},
		{"ff02::1", true},
		{"::", true},
		{"[::ffff:127.0.0.1]", true}, // IPv4-mapped
		{"::ffff:7f00:1", true},
		{"::ffff:169.254.169.254", true},
		{"mapped.test", true},
		{"64:ff9b::7f00:1", true}, // NAT64 of 127.0.0.1
		{"2130706433", true},      // 127.0.0.1 as one decimal number
		{"0x7f000001", true},      // hex
		{"0X7F.0.0.1", true},
		{"0177.0.0.1", true}, // octal
		{"127.1", true},
		{"0xa9.0xfe.0xa9.0xfe", true}, // 169.254.169.254
		{"2852039166", true},          // 169.254.169.254 decimal
		{"intranet.test", true},
		{"mixed.test", true}, // one private answer is enough
		{"93.184.216.34", false},
		{"8.8.8.8", false},
		{"1572395042", false}, // 93.184.216.34 decimal
		{"public.test", false},
		{"public6.test", false},
		{"[2606:4700:4700::1111]", false},
		{"172.32.0.1", false},
		{"192.168.50.7", false}, // in the allow-list
		{"allowed-lan.test", false},
		{"::ffff:192.168.50.7", false},
		// IPv6 forms that carry an IPv4 address are judged as that address.
		{"[::127.0.0.1]", true},                         // IPv4-compatible loopback
		{"::a9fe:a9fe", true},                           // IPv4-compatible cloud metadata
		{"[::10.0.0.1]", true},                          // IPv4-compatible private
		{"[2002:7f00:1::]", true},                       // 6to4 of 127.0.0.1
		{"2002:a9fe:a9fe::1", true},                     // 6to4 of 169.254.169.254
		{"2002:c0a8:101::", true},                       // 6to4 of 192.168.1.1
		{"64:ff9b::10.0.0.1", true},                     // NAT64 /96
		{"64:ff9b:1:7f00:0:100::", true},                // local-use NAT64 /48 of 127.0.0.1
		{"64:ff9b:1::7f00:1", true},                     // local-use NAT64, /96 place
		{"2001:0:4136:e378:8000:63bf:80ff:fffe", true},  // Teredo, client 127.0.0.1
		{"2001:0:4136:e378:8000:63bf:f7f7:f7f7", false}, // Teredo, client 8.8.8.8
		{"[2002:808:808::]", false},                     // 6to4 of 8.8.8.8
		{"64:ff9b::8.8.8.8", false},                     // NAT64 of a public address
		{"[::8.8.8.8]", false},                          // IPv4-compatible public
		{"2002:c0a8:3207::", false},                     // 6to4 of an allowed LAN address
	}
	for _, c := range cases {
		err := g.CheckHost(context.Background(), c.host)
		if got := errors.Is(err, ErrBlocked); got != c.blocked {
			t.Errorf("CheckHost(%q) blocked=%v (err %v), want %v", c.host, got, err, c.blocked)
		}
	}
}

func TestParseHostIP(t *testing.T) {
	cases := map[string]string{
		"2130706433": "127.0.0.1", "0x7f000001": "127.0.0.1", "0177.0.0.1": "127.0.0.1",
		"127.1": "127.0.0.1", "10.1": "10.0.0.1", "192.168.257": "192.168.1.1", "0x7f.1": "127.0.0.1",
		"[::1]": "::1", "1.2.3.4.": "1.2.3.4",
	}
	for in, want := range cases {
		ip, ok := ParseHostIP(in)
		if !ok || ip.String() != want {
			t.Errorf("ParseHostIP(%q) = %v %v, want %s", in, ip, ok, want)
		}
	}
	for _, in := range []string{"example.com", "1.2.3.4.5", "256.1.1.1", "0x", "1..2", "08.0.0.1", "4294967296", "a.b"} {
		if ip, ok := ParseHostIP(in); ok {
			t.Errorf("ParseHostIP(%q) = %v, want not an IP", in, ip)
		}
	}
	if _, err := NewGuard([]string{"10.0.0.0/33"}, nil); err == nil || !strings.Contains(err.Error(), "ssrfAllow") {
		t.Errorf("bad CIDR: %v", err)
	}
}

// counting serves one page and counts the requests that reached it.
func counting(t *testing.T, h http.HandlerFunc) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		if h != nil {
			h(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "hello from the test server")
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func newFetch(t *testing.T, opts Options) tools.Tool {
	t.Helper()
	ts, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return ts[0]
}

func call(t *testing.T, tl tools.Tool, args map[string]any) tools.Result {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	reg := tools.NewRegistry(tools.RegistryOptions{})
	if err := reg.Register(tl); err != nil {
		t.Fatal(err)
	}
	return reg.Call(context.Background(), tl.Name(), raw)
}

// The guard blocks the real fetch: numeric forms of 127.0.0.1 reach nothing
// without the allow-list, and do reach the loopback server with it (proving
// the parser reads them the way the dialer would).
func TestFetchLoopbackForms(t *testing.T) {
	srv, hits := counting(t, nil)
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	res := newResolver(map[string][][]string{"localhost": {{"127.0.0.1"}}})
	deny := newFetch(t, Options{Resolver: res})
	allow := newFetch(t, Options{Resolver: res, SSRFAllow: []string{"127.0.0.0/8"}})
	for _, host := range []string{"127.0.0.1", "localhost", "2130706433", "0x7f000001", "0177.0.0.1", "127.1", "[::ffff:127.0.0.1]"} {
		u := fmt.Sprintf("http://%s:%d/", host, port)
		before := hits.Load()
		if r := call(t, deny, map[string]any{"url": u}); !r.IsError || !strings.Contains(r.Content, "blocked") {
			t.Errorf("%s: not blocked: %s", u, r.Content)
		}
		if hits.Load() != before {
			t.Fatalf("%s: the server was reached", u)
		}
		if r := call(t, allow, map[string]any{"url": u}); r.IsError || !strings.Contains(r.Content, "hello from the test server") {
			t.Errorf("%s with allow-list: %s", u, r.Content)
		}
	}
}

// The IPv6 forms that carry 127.0.0.1 (compatible, 6to4, NAT64, Teredo) are refused
// before anything is dialled: these are the forms web_fetch used to reach.
func TestFetchEmbeddedIPv4Forms(t *testing.T) {
	srv, hits := counting(t, nil)
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	deny := newFetch(t, Options{Resolver: newResolver(nil)})
	for _, host := range []string{"[::127.0.0.1]", "[2002:7f00:1::]", "[64:ff9b::7f00:1]", "[2001:0:4136:e378:8000:63bf:80ff:fffe]"} {
		u := fmt.Sprintf("http://%s:%d/", host, port)
		if r := call(t, deny, map[string]any{"url": u}); !r.IsError || !strings.Contains(r.Content, "127.0.0.1") {
			t.Errorf("%s: not blocked as 127.0.0.1: %s", u, r.Content)
		}
	}
	if hits.Load() != 0 {
		t.Fatal("the server was reached")
	}
}

// A name that resolves to a public address at the check and to loopback at
// the dial (DNS rebinding) is stopped at the dial: the server is never hit.
func TestFetchDNSRebinding(t *testing.T) {
	srv, hits := counting(t, nil)
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	res := newResolver(map[string][][]string{"rebind.test": {{"93.184.216.34"}, {"127.0.0.1"}}})
	tl := newFetch(t, Options{Resolver: res})
	r := call(t, tl, map[string]any{"url": fmt.Sprintf("http://rebind.test:%d/", port)})
	if !r.IsError || !strings.Contains(r.Content, "blocked") || !strings.Contains(r.Content, "127.0.0.1") {
		t.Fatalf("rebinding not blocked: %s", r.Content)
	}
	if res.calls["rebind.test"] < 2 {
		t.Fatalf("the dial did not resolve again (%d lookups)", res.calls["rebind.test"])
	}
	if hits.Load() != 0 {
		t.Fatalf("server reached %d times", hits.Load())
	}
}

func TestFetchRedirects(t *testing.T) {
	var srv *httptest.Server
	srv, hits := counting(t, func(w http.ResponseWriter, r *http.Request) {
		var n int
		switch {
		case r.URL.Path == "/final":
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, "arrived")
		case r.URL.Path == "/to-metadata":
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
		case r.URL.Path == "/to-lan":
			http.Redirect(w, r, "http://0xc0a80001/admin", http.StatusMovedPermanently)
		case r.URL.Path == "/to-file":
			http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
		case r.URL.Path == "/to-rebind":
			http.Redirect(w, r, strings.Replace(srv.URL, "127.0.0.1", "rebind.test", 1)+"/final", http.StatusFound)
		default:
			if _, err := fmt.Sscanf(r.URL.Path, "/hop/%d", &n); err != nil {
				http.NotFound(w, r)
				return
			}
			next := fmt.Sprintf("/hop/%d", n-1)
			if n == 1 {
				next = "/final"
			}
			http.Redirect(w, r, next, http.StatusFound)
		}
	})
	res := newResolver(map[string][][]string{"rebind.test": {{"93.184.216.34"}, {"10.9.9.9"}}})
	tl := newFetch(t, Options{Resolver: res, SSRFAllow: []string{"127.0.0.1/32"}})

	r := call(t, tl, map[string]any{"url": srv.URL + "/hop/5"})
	if r.IsError || !strings.Contains(r.Content, "arrived") || !strings.Contains(r.Content, "URL: "+srv.URL+"/final") {
		t.Errorf("5 redirects: %s", r.Content)
	}
	r = call(t, tl, map[string]any{"url": srv.URL + "/hop/6"})
	if !r.IsError || !strings.Contains(r.Content, "stopped after 5 redirects") {
		t.Errorf("6 redirects: %s", r.Content)
	}
	for path, want := range map[string]string{
		"/to-metadata": "cloud metadata", "/to-lan": "192.168.0.1", "/to-file": "only http and https",
		"/to-rebind": "10.9.9.9",
	} {
		before := hits.Load()
		r = call(t, tl, map[string]any{"url": srv.URL + path})
		if !r.IsError || !strings.Contains(r.Content, want) {
			t.Errorf("%s: %s (want %q)", path, r.Content, want)
		}
		if hits.Load() != before+1 {
			t.Errorf("%s: %d requests reached the server, want only the first", path, hits.Load()-before)
		}
	}
	if r := call(t, tl, map[string]any{"url": "ftp://example.com/x"}); !r.IsError || !strings.Contains(r.Content, "only http and https") {
		t.Errorf("ftp: %s", r.Content)
	}
}

// Offline mode makes no call at all — no lookup, no connection — and says so.
func TestOffline(t *testing.T) {
	srv, hits := counting(t, nil)
	res := newResolver(map[string][][]string{"example.com": {{"93.184.216.34"}}})
	ts, err := New(Options{Offline: true, Resolver: res, SSRFAllow: []string{"127.0.0.0/8"}, DuckDuckGoURL: srv.URL,
		SearXNGURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		tl   tools.Tool
		args map[string]any
	}{
		{ts[0], map[string]any{"url": srv.URL}},
		{ts[0], map[string]any{"url": "http://example.com/"}},
		{ts[1], map[string]any{"query": "coffee"}},
	} {
		r := call(t, c.tl, c.args)
		if !r.IsError || !strings.Contains(r.Content, "offline mode") || !strings.Contains(r.Content, "no request was made") {
			t.Errorf("%s: %s", c.tl.Name(), r.Content)
		}
	}
	if hits.Load() != 0 || res.total() != 0 {
		t.Fatalf("offline made %d requests and %d lookups", hits.Load(), res.total())
	}
}
