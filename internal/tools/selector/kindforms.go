package selector

import (
	"net/netip"
	"strings"
	"unicode"
)

// The forms of payload kindsOf recognises, each a hand-written scanner
// (no regular expression is compiled on the way to a selection).

// The forms of payload kindsOf recognises, each a hand-written scanner
// (no regular expression is compiled on the way to a selection).

// isEmail reports whether w looks like an email address: a local part, an
// @ and a domain whose last label is letters (not react@18.2.0).
func isEmail(w string) bool {
	local, domain, ok := strings.Cut(w, "@")
	if !ok || local == "" || strings.ContainsAny(domain, "@/") {
		return false
	}
	j := strings.LastIndexByte(domain, '.')
	return j > 0 && j+2 < len(domain) && isLetters(domain[j+1:])
}

// isPhone reports whether w looks like a phone number: seven to fifteen
// digits and nothing but digits and separators, written with a leading +
// (+15551234567) or grouped by dashes or dots ending in a group of at
// least four digits (555-123-4567, not the date 2024-01-02 nor the
// decimal 2106.09685).
func isPhone(w string) bool {
	digits, group, plus, seps := 0, 0, false, 0
	for i, r := range w {
		switch {
		case r >= '0' && r <= '9':
			digits++
			group++
		case r == '+' && i == 0:
			plus = true
		case r == '-' || r == '.' || r == '(' || r == ')' || r == ' ':
			seps++
			group = 0
		default:
			return false
		}
	}
	if !plus && seps == 1 && strings.Count(w, ".") == 1 {
		return false // 2106.09685 is a decimal number or an arXiv id
	}
	return digits >= 7 && digits <= 15 && (plus || seps > 0 && group >= 4)
}

// isIP reports whether w is an IPv4 address in four dotted parts or an
// IPv6 address with at least two colons (not a clock time like 10:30).
func isIP(w string) bool {
	if w == "" || !isHex(w[0]) && w[0] != ':' || !strings.ContainsAny(w, ".:") || strings.ContainsAny(w, "/@") {
		return false
	}
	a, err := netip.ParseAddr(w)
	if err != nil {
		return false
	}
	if a.Is4() {
		return strings.Count(w, ".") == 3
	}
	return strings.Count(w, ":") >= 2
}

// isCIDR reports whether w is an address range such as 10.4.0.0/22 or
// 2001:db8::/32.
func isCIDR(w string) bool {
	addr, _, ok := strings.Cut(w, "/")
	if !ok || !isIP(addr) {
		return false
	}
	_, err := netip.ParsePrefix(w)
	return err == nil
}

// isDate reports whether w is a date written in digits (not a kind, but
// told apart from a phone number): 2024-01-02,
// 2024/01/02, 02/01/2024 or 02.01.2024, with a four-digit year from 1900
// to 2199 and a month and day that could be one.
func isDate(w string) bool {
	if len(w) < 8 || len(w) > 10 || !(w[0] >= '0' && w[0] <= '9') {
		return false
	}
	var y, a, b string
	for _, sep := range []string{"-", "/", "."} {
		var ok1, ok2 bool
		y, a, ok1 = strings.Cut(w, sep)
		a, b, ok2 = strings.Cut(a, sep)
		if ok1 && ok2 {
			break
		}
		y = ""
	}
	if y == "" || !isNumber(y) || !isNumber(a) || !isNumber(b) {
		return false
	}
	if len(y) != 4 {
		y, a, b = b, y, a
	}
	day := func(s string) bool { return len(s) <= 2 && atoi(s) >= 1 && atoi(s) <= 31 }
	month := func(s string) bool { return len(s) <= 2 && atoi(s) >= 1 && atoi(s) <= 12 }
	return len(y) == 4 && atoi(y) >= 1900 && atoi(y) < 2200 && day(a) && day(b) && (month(a) || month(b))
}

// isVersion reports whether w is a version: v3, v1.2, v1.2.3 or 1.2.3
// (three parts, a pre-release after a dash allowed), a range of them
// (^1.3.0, >=2.0.0), or a package with one (react@18.2.0, left-pad@^1.3).
func isVersion(w string) bool {
	if at := strings.LastIndexByte(w, '@'); at > 0 {
		return numbersJoined(strings.TrimLeft(w[at+1:], "^~=<>v"), 1)
	}
	core, _, _ := strings.Cut(strings.TrimLeft(w, "^~=<>"), "-")
	if rest, ok := strings.CutPrefix(core, "v"); ok {
		return numbersJoined(rest, 1)
	}
	return numbersJoined(core, 3) && strings.Count(core, ".") == 2
}

// numbersJoined reports whether w is at least min numbers joined by dots.
func numbersJoined(w string, min int) bool {
	n := 1
	for {
		p, rest, more := strings.Cut(w, ".")
		if !isNumber(p) {
			return false
		}
		if !more {
			return n >= min
		}
		w, n = rest, n+1
	}
}

// isFlight reports whether w is a flight number as written on a ticket:
// a two-letter airline code in capitals and two to four digits (BA117,
// MU5101), not a code that looks like one (ES2015, IE11, FY2024).
func isFlight(w string) bool {
	if len(w) < 4 || len(w) > 6 || notFlights()[w[:2]] {
		return false
	}
	return w[0] >= 'A' && w[0] <= 'Z' && w[1] >= 'A' && w[1] <= 'Z' && isNumber(w[2:])
}

// isDomain reports whether w is a bare host name such as acme.io or
// mail.example.co.uk: labels of letters, digits and dashes ending in a
// common top-level domain.
func isDomain(w string) bool {
	j := strings.LastIndexByte(w, '.')
	if j <= 0 || !topLevelDomains()[w[j+1:]] || strings.Contains(w, "..") || w[0] == '.' {
		return false
	}
	return strings.IndexFunc(w, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '.') }) < 0
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func isLetters(w string) bool {
	return w != "" && strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) < 0
}

// atoi is the value of a short string of digits (isNumber), 0 if empty.
func atoi(s string) int {
	n := 0
	for _, c := range []byte(s) {
		n = n*10 + int(c-'0')
	}
	return n
}
