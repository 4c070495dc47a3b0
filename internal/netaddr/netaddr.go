// Package netaddr says which addresses and names lie outside the public
// internet: this machine, its private networks and cloud metadata
// services. The web tools refuse to dial them, and the approval policy asks
// by name for them (docs/reliability.md, the threat model).
package netaddr

import (
	"net/netip"
	"strings"
	"sync"
)

// ranges are the addresses outside the public internet, most specific
// first: what a hostile page or prompt would aim a fetch at to reach this
// machine, its network or a cloud's metadata service. Parsed on first
// use, not at every start of tai.
var ranges = sync.OnceValue(func() []addrRange {
	return []addrRange{
		{pfx("169.254.169.254/32"), "the cloud metadata address"},
		{pfx("169.254.170.2/32"), "the cloud metadata address"}, // ECS task credentials
		{pfx("100.100.100.200/32"), "the cloud metadata address"},
		{pfx("192.0.0.192/32"), "the cloud metadata address"}, // Oracle Cloud
		{pfx("fd00:ec2::254/128"), "the cloud metadata address"},
		{pfx("255.255.255.255/32"), "the broadcast address"},
		{pfx("0.0.0.0/8"), "an unspecified address"},
		{pfx("127.0.0.0/8"), "a loopback address"},
		{pfx("10.0.0.0/8"), "a private address"},
		{pfx("172.16.0.0/12"), "a private address"},
		{pfx("192.168.0.0/16"), "a private address"},
		{pfx("100.64.0.0/10"), "a carrier-grade NAT address"},
		{pfx("169.254.0.0/16"), "a link-local address"},
		{pfx("192.0.0.0/24"), "a reserved address"},
		{pfx("192.0.2.0/24"), "a reserved address"},
		{pfx("198.18.0.0/15"), "a reserved address"},
		{pfx("198.51.100.0/24"), "a reserved address"},
		{pfx("203.0.113.0/24"), "a reserved address"},
		{pfx("224.0.0.0/4"), "a multicast address"},
		{pfx("240.0.0.0/4"), "a reserved address"},
		{pfx("::/128"), "an unspecified address"},
		{pfx("::1/128"), "a loopback address"},
		{pfx("::/96"), "a reserved address"},         // IPv4-compatible, deprecated
		{pfx("64:ff9b:1::/48"), "a private address"}, // local-use NAT64
		{pfx("100::/64"), "a reserved address"},
		{pfx("2001:db8::/32"), "a reserved address"},
		{pfx("fc00::/7"), "a private address"},
		{pfx("fec0::/10"), "a private address"}, // site-local, deprecated
		{pfx("fe80::/10"), "a link-local address"},
		{pfx("ff00::/8"), "a multicast address"},
	}
})

type addrRange struct {
	prefix netip.Prefix
	kind   string
}

func pfx(s string) netip.Prefix { return netip.MustParsePrefix(s) }

// Prefixes whose addresses carry an IPv4 address that is what they reach.
var (
	nat64     = pfx("64:ff9b::/96") // well-known NAT64: the last 32 bits
	sixToFour = pfx("2002::/16")    // 6to4: bits 16 to 48
)

// Kind names what ip is when it is not a public address, "" when it
// is. IPv4 addresses written as IPv6 (mapped, NAT64, 6to4) are judged by
// the IPv4 address they reach.
func Kind(ip netip.Addr) string {
	ip = ip.WithZone("")
	if ip.Is4In6() {
		ip = ip.Unmap()
	}
	if ip.Is6() {
		b := ip.As16()
		switch {
		case nat64.Contains(ip):
			ip = netip.AddrFrom4([4]byte(b[12:16]))
		case sixToFour.Contains(ip):
			ip = netip.AddrFrom4([4]byte(b[2:6]))
		}
	}
	for _, r := range ranges() {
		if r.prefix.Contains(ip) {
			return r.kind
		}
	}
	return ""
}

// metadataNames are the names cloud providers give their metadata
// services; they resolve to link-local addresses anyway, but are refused
// by name too, since inside such a network the resolver is the cloud's.
var metadataNames = map[string]bool{
	"metadata":                   true,
	"metadata.google.internal":   true,
	"metadata.goog":              true,
	"metadata.azure.internal":    true,
	"instance-data":              true,
	"instance-data.ec2.internal": true,
}

// NameKind names what host is when its name alone says it is not on the
// public internet, "" otherwise.
func NameKind(host string) string {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	switch {
	case metadataNames[host]:
		return "a cloud metadata name"
	case host == "localhost" || strings.HasSuffix(host, ".localhost"):
		return "a loopback name"
	}
	return ""
}

// Public splits ips into the public ones, in their order, and the first
// that is not, with its Kind (an invalid address when all are public):
// what a request reaches for a host nobody approved by name.
func Public(ips []netip.Addr) (public []netip.Addr, refused netip.Addr, kind string) {
	for _, ip := range ips {
		if k := Kind(ip); k != "" {
			if !refused.IsValid() {
				refused, kind = ip, k
			}
			continue
		}
		public = append(public, ip)
	}
	return public, refused, kind
}
