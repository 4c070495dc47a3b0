package netaddr

import (
	"net/netip"
	"testing"
)

func TestKind(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1":              "a loopback address",
		"127.8.9.10":             "a loopback address",
		"::1":                    "a loopback address",
		"::ffff:127.0.0.1":       "a loopback address",
		"10.0.0.5":               "a private address",
		"172.16.0.1":             "a private address",
		"172.31.255.255":         "a private address",
		"192.168.1.1":            "a private address",
		"fd12:3456::1":           "a private address",
		"::ffff:10.1.2.3":        "a private address",
		"64:ff9b::a00:5":         "a private address", // NAT64 of 10.0.0.5
		"64:ff9b:1::1":           "a private address",
		"2002:c0a8:101::1":       "a private address", // 6to4 of 192.168.1.1
		"169.254.169.254":        "the cloud metadata address",
		"::ffff:169.254.169.254": "the cloud metadata address",
		"64:ff9b::a9fe:a9fe":     "the cloud metadata address",
		"fd00:ec2::254":          "the cloud metadata address",
		"100.100.100.200":        "the cloud metadata address",
		"192.0.0.192":            "the cloud metadata address",
		"169.254.1.1":            "a link-local address",
		"fe80::1":                "a link-local address",
		"fe80::1%eth0":           "a link-local address",
		"100.64.0.1":             "a carrier-grade NAT address",
		"100.127.255.255":        "a carrier-grade NAT address",
		"0.0.0.0":                "an unspecified address",
		"::":                     "an unspecified address",
		"224.0.0.1":              "a multicast address",
		"ff02::1":                "a multicast address",
		"255.255.255.255":        "the broadcast address",
		"240.0.0.1":              "a reserved address",
		"::7f00:1":               "a reserved address",
		"8.8.8.8":                "",
		"172.32.0.1":             "",
		"100.128.0.1":            "",
		"64:ff9b::808:808":       "", // NAT64 of 8.8.8.8
		"2606:4700:4700::1111":   "",
		"::ffff:1.1.1.1":         "",
	} {
		if got := Kind(netip.MustParseAddr(addr)); got != want {
			t.Errorf("Kind(%s) = %q, want %q", addr, got, want)
		}
	}
}

func TestNameKind(t *testing.T) {
	for name, want := range map[string]string{
		"metadata.google.internal.": "a cloud metadata name",
		"LOCALHOST":                 "a loopback name",
		"api.localhost":             "a loopback name",
		"example.com":               "",
		"localhost.example.com":     "",
	} {
		if got := NameKind(name); got != want {
			t.Errorf("NameKind(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestPublic(t *testing.T) {
	ips := []netip.Addr{netip.MustParseAddr("127.0.0.1"), netip.MustParseAddr("93.184.216.34"), netip.MustParseAddr("10.0.0.1"), netip.MustParseAddr("2606:4700::1111")}
	public, bad, kind := Public(ips)
	if len(public) != 2 || public[0] != ips[1] || public[1] != ips[3] || bad != ips[0] || kind != Kind(ips[0]) || kind == "" {
		t.Errorf("Public = %v, %v, %q", public, bad, kind)
	}
	if public, bad, _ := Public(ips[1:2]); len(public) != 1 || bad.IsValid() {
		t.Errorf("all public: %v, %v", public, bad)
	}
}
