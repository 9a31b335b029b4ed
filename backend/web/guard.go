package web

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ErrBlocked marks a request refused by the SSRF guard (docs/design/safety-defaults.md#web-fetch).
var ErrBlocked = errors.New("blocked by the SSRF guard")

// Resolver looks host names up. *net.Resolver satisfies it; tests inject
// one whose answers change between calls (DNS rebinding).
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// blocked are the ranges web_fetch never reaches unless the allow-list says
// so: the machine itself, private networks, link-local (with the cloud
// metadata address 169.254.169.254), carrier-grade NAT, multicast, reserved.
var blocked = mustPrefixes(
	"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16",
	"172.16.0.0/12", "192.0.0.0/24", "192.0.2.0/24", "192.168.0.0/16", "198.18.0.0/15",
	"198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
	"::/128", "::1/128", "100::/64", "2001:db8::/32",
	"fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8",
)

func mustPrefixes(cidrs ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(cidrs))
	for i, c := range cidrs {
		out[i] = netip.MustParsePrefix(c)
	}
	return out
}

// Guard decides which addresses web_fetch may connect to. The check runs on
// the address actually dialed (net.Dialer.Control), so a DNS answer that
// changes between a first check and the connection cannot slip through, and
// on every redirect (each one dials anew).
type Guard struct {
	allow    []netip.Prefix
	resolver Resolver
	dialer   net.Dialer
}

// NewGuard builds a Guard. allow holds CIDR ranges that are reachable even
// though they are blocked by default (tools.web.ssrfAllow, e.g. a NAS on the
// LAN); resolver nil means net.DefaultResolver.
func NewGuard(allow []string, resolver Resolver) (*Guard, error) {
	g := &Guard{resolver: resolver}
	g.resolver = cmp.Or[Resolver](g.resolver, net.DefaultResolver)
	for _, c := range allow {
		p, err := netip.ParsePrefix(strings.TrimSpace(c))
		if err != nil {
			return nil, fmt.Errorf("tools.web.ssrfAllow: %q is not a CIDR range (hint: e.g. \"192.168.1.0/24\"): %w", c, err)
		}
		g.allow = append(g.allow, p.Masked())
	}
	g.dialer = net.Dialer{Timeout: 15 * time.Second, Control: g.control}
	return g, nil
}

// CheckIP returns an error wrapping ErrBlocked when ip may not be reached.
// An IPv6 address that carries an IPv4 address (mapped ::ffff:a.b.c.d, compatible
// ::a.b.c.d, 6to4, NAT64, Teredo) is judged as that IPv4 address too, since the
// network delivers it there.
func (g *Guard) CheckIP(ip netip.Addr) error {
	ip = ip.Unmap().WithZone("")
	if !ip.IsValid() {
		return fmt.Errorf("%w: invalid address", ErrBlocked)
	}
	for _, e := range embeddedIPv4(ip) {
		if err := g.checkOne(e.addr); err != nil {
			return fmt.Errorf("%w: %s carries %s (%s), a %s address (hint: add its range to tools.web.ssrfAllow to allow it)",
				ErrBlocked, ip, e.addr, e.form, rangeName(e.addr))
		}
	}
	return g.checkOne(ip)
}

func (g *Guard) checkOne(ip netip.Addr) error {
	for _, p := range g.allow {
		if p.Contains(ip) {
			return nil
		}
	}
	for _, p := range blocked {
		if p.Contains(ip) {
			return fmt.Errorf("%w: %s is a %s address (hint: add its range to tools.web.ssrfAllow to allow it)", ErrBlocked, ip, rangeName(ip))
		}
	}
	return nil
}

type embedded struct {
	addr netip.Addr
	form string
}

var (
	sixToFour = netip.MustParsePrefix("2002::/16")
	nat64     = netip.MustParsePrefix("64:ff9b::/96")
	nat64New  = netip.MustParsePrefix("64:ff9b:1::/48")
	teredo    = netip.MustParsePrefix("2001::/32")
	v4compat  = netip.MustParsePrefix("::/96")
)

// embeddedIPv4 returns the IPv4 addresses an IPv6 address carries (RFC 4291 compatible,
// RFC 3056 6to4, RFC 6052 NAT64 at /96 and the local-use /48, RFC 4380 Teredo).
func embeddedIPv4(ip netip.Addr) []embedded {
	if !ip.Is6() {
		return nil
	}
	b := ip.As16()
	v4 := func(a, b2, c, d byte) netip.Addr { return netip.AddrFrom4([4]byte{a, b2, c, d}) }
	switch {
	case v4compat.Contains(ip):
		if e := v4(b[12], b[13], b[14], b[15]); e.Compare(v4(0, 0, 0, 1)) > 0 { // not :: or ::1
			return []embedded{{e, "IPv4-compatible"}}
		}
	case sixToFour.Contains(ip):
		return []embedded{{v4(b[2], b[3], b[4], b[5]), "6to4"}}
	case nat64.Contains(ip):
		return []embedded{{v4(b[12], b[13], b[14], b[15]), "NAT64"}}
	case nat64New.Contains(ip):
		// The local-use prefix may be any RFC 6052 length: judge the /48 and /96 places.
		return []embedded{{v4(b[6], b[7], b[9], b[10]), "NAT64"}, {v4(b[12], b[13], b[14], b[15]), "NAT64"}}
	case teredo.Contains(ip):
		return []embedded{
			{v4(b[12]^0xff, b[13]^0xff, b[14]^0xff, b[15]^0xff), "Teredo client"},
			{v4(b[4], b[5], b[6], b[7]), "Teredo server"},
		}
	}
	return nil
}

func rangeName(ip netip.Addr) string {
	switch {
	case ip.IsLoopback():
		return "loopback"
	case ip == netip.MustParseAddr("169.254.169.254"):
		return "cloud metadata"
	case ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast():
		return "link-local"
	case ip.IsPrivate():
		return "private"
	case ip.IsMulticast():
		return "multicast"
	default:
		return "reserved"
	}
}

// control is the net.Dialer hook: address is the IP and port being dialed,
// after resolution.
func (g *Guard) control(network, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrBlocked, err)
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return fmt.Errorf("%w: dialing %q, not an IP address", ErrBlocked, host)
	}
	return g.CheckIP(ip)
}

// Resolve returns the addresses of host, which may be a name or an IP in any
// of the forms browsers accept (127.1, 2130706433, 0x7f000001, 0177.0.0.1).
func (g *Guard) Resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	if ip, ok := ParseHostIP(host); ok {
		return []netip.Addr{ip}, nil
	}
	ips, err := g.resolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil, fmt.Errorf("look up %s: %w", host, err)
	}
	if len(ips) == 0 {
		return nil, fmt.Errorf("look up %s: no addresses", host)
	}
	return ips, nil
}

// CheckHost resolves host and fails if any of its addresses is blocked.
// It gives a clear early error; the dial-time check is what enforces.
func (g *Guard) CheckHost(ctx context.Context, host string) error {
	ips, err := g.Resolve(ctx, host)
	if err != nil {
		return err
	}
	for _, ip := range ips {
		if err := g.CheckIP(ip); err != nil {
			return fmt.Errorf("%s: %w", host, err)
		}
	}
	return nil
}

// DialContext resolves addr's host itself (so a numeric form is read the way
// a browser reads it) and dials the addresses in turn; every dial passes
// through control, which checks the IP the socket really connects to.
func (g *Guard) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	ips, err := g.Resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	var first error
	for _, ip := range ips {
		c, err := g.dialer.DialContext(ctx, network, net.JoinHostPort(ip.Unmap().String(), port))
		if err == nil {
			return c, nil
		}
		if first == nil || errors.Is(err, ErrBlocked) && !errors.Is(first, ErrBlocked) {
			first = err
		}
	}
	return nil, first
}

// ParseHostIP reads host as an IP address: IPv6 (with or without brackets),
// dotted IPv4, and the inet_aton forms that URL parsers in browsers and curl
// accept — fewer than four parts (127.1), one 32-bit number (2130706433),
// hex (0x7f000001, 0x7f.0.0.1) and octal (0177.0.0.1) parts.
func ParseHostIP(host string) (netip.Addr, bool) {
	h := strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if ip, err := netip.ParseAddr(h); err == nil {
		return ip, true
	}
	parts := strings.Split(strings.TrimSuffix(h, "."), ".")
	if len(parts) == 0 || len(parts) > 4 {
		return netip.Addr{}, false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, ok := parseInetPart(p)
		if !ok {
			return netip.Addr{}, false
		}
		nums[i] = n
	}
	var v uint64
	last := len(nums) - 1
	for i := 0; i < last; i++ {
		if nums[i] > 255 {
			return netip.Addr{}, false
		}
		v |= nums[i] << (8 * (3 - i))
	}
	if nums[last] >= 1<<(8*(4-last)) {
		return netip.Addr{}, false
	}
	v |= nums[last]
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

func parseInetPart(p string) (uint64, bool) {
	if p == "" {
		return 0, false
	}
	base := 10
	switch {
	case len(p) > 2 && (p[:2] == "0x" || p[:2] == "0X"):
		base, p = 16, p[2:]
	case len(p) > 1 && p[0] == '0':
		base, p = 8, p[1:]
	}
	n, err := strconv.ParseUint(p, base, 32)
	return n, err == nil
}
