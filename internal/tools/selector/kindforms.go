package selector

import (
	"net/netip"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

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

// isUUID reports whether w is a UUID: 8-4-4-4-12 hexadecimal digits.
func isUUID(w string) bool {
	if len(w) != 36 {
		return false
	}
	for i, c := range []byte(w) {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if c != '-' {
				return false
			}
		} else if !isHex(c) {
			return false
		}
	}
	return true
}

// hashKind names a hexadecimal digest by its length: a git commit id as
// git abbreviates it (7 digits) or in full (40), another short
// identifier (8–12: a job's, a record's), an MD5 (32) or a SHA-256 (64,
// also written sha256:…). It needs both a digit and a letter and one
// case, so that no word or plain number is a hash.
func hashKind(w string) string {
	if w != strings.ToLower(w) && w != strings.ToUpper(w) {
		return ""
	}
	w = strings.ToLower(w)
	digest := false
	if rest, ok := strings.CutPrefix(w, "sha256:"); ok {
		w, digest = rest, true
	}
	digit, letter := false, false
	for _, c := range []byte(w) {
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'f':
			letter = true
		default:
			return ""
		}
	}
	if !digit || !letter && !digest {
		return ""
	}
	switch n := len(w); {
	case n == 64:
		return "hash sha digest"
	case digest:
		return ""
	case n == 40:
		return "commit sha hash"
	case n == 32:
		return "hash md5"
	case n == 7:
		return "commit"
	case n >= 8 && n <= 12:
		return "id"
	}
	return ""
}

// isISBN reports whether w is an ISBN-13 (978 or 979, its check digit
// right, hyphens allowed) or a hyphenated ISBN-10 in four groups with its
// check digit right.
func isISBN(w string) bool {
	d := strings.ReplaceAll(w, "-", "")
	switch {
	case len(d) == 13 && (strings.HasPrefix(d, "978") || strings.HasPrefix(d, "979")) && isNumber(d):
		sum := 0
		for i, c := range []byte(d) {
			sum += int(c-'0') * (1 + 2*(i%2))
		}
		return sum%10 == 0
	case len(d) == 10 && strings.Count(w, "-") == 3 && isNumber(d[:9]) && (isNumber(d[9:]) || d[9] == 'X' || d[9] == 'x'):
		sum := 0
		for i, c := range []byte(d) {
			v := int(c - '0')
			if c == 'X' || c == 'x' {
				v = 10
			}
			sum += v * (10 - i)
		}
		return sum%11 == 0
	}
	return false
}

// isDate reports whether w is a date written in digits: 2024-01-02,
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

// months are the names of the months and their abbreviations.
var months = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"january": true, "february": true, "march": true, "april": true, "may": true, "june": true, "july": true,
		"august": true, "september": true, "october": true, "november": true, "december": true,
		"jan": true, "feb": true, "mar": true, "apr": true, "jun": true, "jul": true, "aug": true, "sep": true, "sept": true,
		"oct": true, "nov": true, "dec": true,
	}
})

// isDay reports whether w is a day of the month: 1 to 31, perhaps with
// its ordinal ending (3rd, 21st).
func isDay(w string) bool {
	for _, end := range []string{"st", "nd", "rd", "th"} {
		w = strings.TrimSuffix(w, end)
	}
	return isNumber(w) && len(w) <= 2 && atoi(w) >= 1 && atoi(w) <= 31
}

// isClock reports whether w is a time of day: 3pm, 3:30pm, 15:30 or
// 09:00 (hours and minutes in range).
func isClock(w string) bool {
	s := strings.TrimSuffix(strings.TrimSuffix(w, "am"), "pm")
	ampm := s != w
	h, m, colon := strings.Cut(s, ":")
	if !colon && !ampm || !isNumber(h) || len(h) > 2 {
		return false
	}
	if ampm && (atoi(h) < 1 || atoi(h) > 12) || atoi(h) > 23 {
		return false
	}
	return !colon || len(m) == 2 && isNumber(m) && atoi(m) < 60
}

// isZoneName reports whether w is an IANA time zone name such as
// Europe/Berlin or America/New_York.
func isZoneName(w string) bool {
	area, city, ok := strings.Cut(w, "/")
	switch area {
	case "Africa", "America", "Antarctica", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific":
	default:
		return false
	}
	return ok && city != "" && unicode.IsUpper(rune(city[0])) && strings.IndexFunc(city, func(r rune) bool {
		return !unicode.IsLetter(r) && r != '_' && r != '/'
	}) < 0
}

// zoneAt is how many tokens of toks[i:] name a time zone at its start:
// an IANA name, an abbreviation or the city of a zone in zoneNames ("new
// york"); 0 if none.
func zoneAt(toks []token, i int) int {
	if i >= len(toks) {
		return 0
	}
	if isZoneName(toks[i].w) || zoneAbbreviations()[strings.ToLower(toks[i].w)] {
		return 1
	}
	for _, z := range zoneNames {
		city, k := z[strings.LastIndexByte(z, '/')+1:], i
		for city != "" && k >= 0 {
			var word string
			word, city, _ = strings.Cut(city, "_")
			if k < len(toks) && strings.EqualFold(toks[k].w, word) {
				k++
			} else {
				k = -1
			}
		}
		if k > i {
			return k - i
		}
	}
	return 0
}

// quantity splits a number written with a unit or a currency, in one
// token ("80kg", "68°f", "€40", "40€", "$1,200") or followed by the unit
// or currency as the next token ("5 miles", "40 eur"); unit is the unit or
// currency as written, "" for a symbol.
func quantity(w, next string) (unit string, ok bool) {
	if r, size := utf8.DecodeRuneInString(w); strings.ContainsRune(currencySymbols, r) && isAmount(w[size:]) {
		return "", true
	}
	if r, size := utf8.DecodeLastRuneInString(w); strings.ContainsRune(currencySymbols, r) && isAmount(w[:len(w)-size]) {
		return "", true
	}
	j := strings.IndexFunc(w, func(r rune) bool { return !(r >= '0' && r <= '9' || r == '.' || r == ',') })
	switch {
	case j < 0 && isAmount(w) && (unitKinds()[next] != "" || currencyCodes()[next]):
		return next, true
	case j > 0 && isAmount(w[:j]) && (unitKinds()[w[j:]] != "" || currencyCodes()[w[j:]] && len(w[j:]) == 3):
		return w[j:], true
	}
	return "", false
}

// isUnit reports whether w names a unit or a currency ("celsius", "km",
// "eur", "€").
func isUnit(w string) bool {
	r, size := utf8.DecodeRuneInString(w)
	return unitKinds()[w] != "" || currencyCodes()[w] || size == len(w) && strings.ContainsRune(currencySymbols, r)
}

// isExpression reports whether w is arithmetic written without spaces:
// numbers joined by + * / ^ × ÷ (and -, = once one of those is there),
// such as 2+2, (3*4)/2 or 2^10; "3-4" and "12/4" alone are ranges and
// dates, not sums.
func isExpression(w string) bool {
	if w == "" || !(w[0] >= '0' && w[0] <= '9' || w[0] == '(') {
		return false
	}
	ops, strong, digits := 0, false, false
	prevDigit := false
	for _, r := range w {
		switch {
		case r >= '0' && r <= '9' || r == '.':
			digits, prevDigit = true, true
			continue
		case strings.ContainsRune("+*^×÷", r):
			strong = true
		case strings.ContainsRune("-/=()", r):
		default:
			return false
		}
		if r != '(' && r != ')' {
			ops++
		}
		prevDigit = false
	}
	return digits && strong && ops > 0 && prevDigit || digits && strong && strings.HasSuffix(w, ")")
}

// isAmount reports whether w is a number with thousands separators
// perhaps: 1,200.50.
func isAmount(w string) bool { return isDecimal(strings.ReplaceAll(w, ",", "")) }

// isDecimal reports whether w is a number, perhaps with a decimal point
// and a sign: 12, 18.5, -74.006.
func isDecimal(w string) bool {
	w = strings.TrimPrefix(w, "-")
	a, b, dot := strings.Cut(w, ".")
	return isNumber(a) && (!dot || isNumber(b))
}

// isCoordinate reports whether w is a latitude (limit 90) or longitude
// (limit 180) written with at least three decimals, as a place's
// coordinates are ("48.8566", "-74.0060"), not a price or a version.
func isCoordinate(w string, limit int) bool {
	whole, frac, ok := strings.Cut(strings.TrimPrefix(strings.TrimRight(w, "°"), "-"), ".")
	return ok && len(frac) >= 3 && len(whole) <= 3 && isNumber(whole) && isNumber(frac) && atoi(whole) <= limit
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

// isColor reports whether w is a hex colour: # and 3, 4, 6 or 8 hex
// digits, not all digits (#123 is an issue); a colour spelled only in
// letters must repeat one or two of them (#fff, #ffeeff), so that a
// hashtag like #decade is none.
func isColor(w string) bool {
	h, ok := strings.CutPrefix(strings.ToLower(w), "#")
	if !ok || len(h) != 3 && len(h) != 4 && len(h) != 6 && len(h) != 8 {
		return false
	}
	digits, letters := 0, map[byte]bool{}
	for _, c := range []byte(h) {
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c >= 'a' && c <= 'f':
			letters[c] = true
		default:
			return false
		}
	}
	return digits < len(h) && (digits > 0 || len(letters) <= 2)
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

// isIssueKey reports whether w is an issue tracker's key: a project's
// capitals (two to ten, digits after the first letter allowed), a dash
// and the issue's number, as Jira, Linear, Plane and YouTrack write them
// (PROJ-123, WEB-7). Names of standards, algorithms and models written
// the same way (SHA-256, UTF-8, COVID-19, GPT-4) are not.
func isIssueKey(w string) bool {
	project, number, ok := strings.Cut(w, "-")
	if !ok || len(project) < 2 || len(project) > 10 || len(number) > 6 || !isNumber(number) || notIssueKeys()[project] {
		return false
	}
	return project[0] >= 'A' && project[0] <= 'Z' && capitalsOrDigits(project)
}

// notIssueKeys are the capitals of names written like issue keys that
// are something else: standards, encodings, algorithms, models.
var notIssueKeys = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields("SHA MD UTF ISO IEC RFC PEP ES ECMA AES RSA DES TLS SSL HTTP IPV IP TCP UDP USB HDMI PCIE DDR LTE COVID SARS GPT BERT LLAMA PHI MP CVE CWE ASCII ANSI IEEE MIL STD FIPS X A4 EN DIN JIS GB UN") {
		m[w] = true
	}
	return m
})

// isHexOf reports whether w is prefix and n hexadecimal digits: a wallet
// or contract address on Ethereum and the chains built like it (0x and
// 40 digits), a transaction hash there (0x and 64).
func isHexOf(w, prefix string, n int) bool {
	h, ok := strings.CutPrefix(w, prefix)
	if !ok || len(h) != n {
		return false
	}
	for _, c := range []byte(h) {
		if !isHex(c) {
			return false
		}
	}
	return true
}

// isMavenCoordinate reports whether w is a Maven (and Gradle) coordinate,
// groupId:artifactId[:version], as written in lower case: a group named
// like a reversed domain under a common top-level one
// (org.springframework.boot:spring-boot-starter-web:3.2.0,
// com.fasterxml.jackson.core:jackson-databind), not a host and port
// (db.example.com:5432) or a Python entry point (myapp.cli:main).
func isMavenCoordinate(w string) bool {
	parts := strings.Split(w, ":")
	if len(parts) < 2 || len(parts) > 4 {
		return false
	}
	group := strings.Split(parts[0], ".")
	if len(group) < 2 || !mavenRoots()[group[0]] {
		return false
	}
	for _, g := range group[1:] {
		if g == "" || !isAlnumWord(g, "_-") {
			return false
		}
	}
	artifact := parts[1]
	return artifact != "" && artifact[0] >= 'a' && artifact[0] <= 'z' && isAlnumWord(artifact, "-._")
}

// isAlnumWord reports whether w holds only lower-case letters, digits and
// the bytes of extra.
func isAlnumWord(w, extra string) bool {
	for _, c := range []byte(w) {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte(extra, c) >= 0) {
			return false
		}
	}
	return true
}

// mavenRoots are the top-level domains Maven groups are mostly named
// under.
var mavenRoots = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields("org com io net dev edu gov app co me ai tech info biz eu de fr nl be ch at uk se no fi dk pl cz it es pt ru ua jp cn kr in au ca br us") {
		m[w] = true
	}
	return m
})

// isTracking reports whether w is a UPS tracking number: 1Z and sixteen
// capitals or digits. Other carriers' numbers are plain digits and can
// not be told from order numbers.
func isTracking(w string) bool {
	return len(w) == 18 && strings.HasPrefix(w, "1Z") && capitalsOrDigits(w[2:])
}

// capitalsOrDigits reports whether s is only ASCII capitals and digits.
func capitalsOrDigits(s string) bool {
	for _, c := range []byte(s) {
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
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

// cronIn reports whether toks hold a cron expression: five or six fields
// in a row of digits, *, /, , and -, two of them together holding a *, or
// one a step (*/5), as in "0 9 * * 1-5" or "*/15 * * * *" and unlike the
// product "3 * 4 * 5".
func cronIn(toks []token) bool {
	field := func(w string) bool {
		return w != "" && strings.IndexFunc(w, func(r rune) bool { return !(r >= '0' && r <= '9' || strings.ContainsRune("*/,-?", r)) }) < 0
	}
	for i := 0; i < len(toks); {
		j := i
		for j < len(toks) && field(toks[j].w) {
			j++
		}
		if n := j - i; n == 5 || n == 6 {
			for k := i; k < j; k++ {
				if strings.HasPrefix(toks[k].w, "*/") || k+1 < j && strings.Contains(toks[k].w, "*") && strings.Contains(toks[k+1].w, "*") {
					return true
				}
			}
		}
		i = j + 1
	}
	return false
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
