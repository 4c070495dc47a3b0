package selector

import (
	"strconv"
	"strings"
	"sync"
)

// Kinds of payload. The words inside an address, a phone number or a
// file name are the request's payload and count little (quotedWeight),
// but what kind of thing the payload is says much about the tool: a phone
// number is for a phone or SMS tool, an email address for mail, a .xlsx
// file for a spreadsheet tool, 10.4.0.0/22 for a network tool, "68
// fahrenheit in celsius" for a unit converter. kindsOf names those kinds
// in the words tool descriptions use; they count at kindWeight.
//
// A kind is named only where its form leaves no doubt (a checksum, a
// fixed shape, a unit or a currency written beside a number), so that
// ordinary words and plain numbers name none: docs/benchmarks.md, "Tool
// selection", lists the kinds and what was left out.

// The tables below are built on first use, not when tai starts
// (docs/benchmarks.md, "Start-up: tai against a hello-world binary").

// kindWeight is what a kind of payload counts for: evidence about the
// tool, weaker than the person's own words for it.
const kindWeight = 0.5

// extensionKinds are the kinds of common document and media file
// extensions. Source files are left out: the native file tools serve
// them whatever their language.
var extensionKinds = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"csv": "spreadsheet csv", "tsv": "spreadsheet", "xlsx": "spreadsheet excel", "xls": "spreadsheet excel", "ods": "spreadsheet",
		"png": "image", "jpg": "image", "jpeg": "image", "gif": "image", "webp": "image", "svg": "image", "bmp": "image", "tiff": "image",
		"pdf": "pdf document", "doc": "document word", "docx": "document word", "odt": "document", "rtf": "document",
		"pptx": "presentation slides", "ppt": "presentation slides", "key": "presentation",
		"mp3": "audio", "wav": "audio", "flac": "audio", "ogg": "audio", "m4a": "audio",
		"mp4": "video", "mov": "video", "mkv": "video", "webm": "video", "avi": "video",
		"ics": "calendar event", "vcf": "contact", "eml": "email",
	}
})

// schemeKinds are the kinds of URI schemes other than the web's: cloud
// storage, file transfer, remote shells and database connection strings.
var schemeKinds = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"http": "url", "https": "url", "ws": "url websocket", "wss": "url websocket",
		"gs": "storage bucket object gcs google cloud", "s3": "storage bucket object s3 aws",
		"az": "storage blob container azure", "abfs": "storage blob container azure", "abfss": "storage blob container azure",
		"wasb": "storage blob container azure", "wasbs": "storage blob container azure",
		"ftp": "ftp file transfer", "ftps": "ftp file transfer", "sftp": "sftp file transfer",
		"ssh": "ssh remote server", "git": "git repository", "file": "file",
		"postgres": "database postgres sql", "postgresql": "database postgres sql", "mysql": "database mysql sql",
		"mongodb": "database mongodb", "mongodb+srv": "database mongodb", "redis": "database redis cache", "rediss": "database redis cache",
	}
})

// Units of measure written after a number ("5 miles", "80kg"), by the
// quantity they measure. Words that are also common otherwise ("in", "m",
// "g", "pounds", "degrees", "cups" of coffee…) are not units here.
var unitKinds = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"fahrenheit": "temperature", "celsius": "temperature", "kelvin": "temperature", "°f": "temperature", "°c": "temperature", "ºf": "temperature", "ºc": "temperature",
		"mile": "distance", "miles": "distance", "mi": "distance", "km": "distance", "kilometer": "distance", "kilometers": "distance",
		"kilometre": "distance", "kilometres": "distance", "meter": "distance", "meters": "distance", "metre": "distance", "metres": "distance",
		"cm": "distance", "mm": "distance", "ft": "distance", "feet": "distance", "foot": "distance", "inch": "distance", "inches": "distance",
		"yard": "distance", "yards": "distance", "yd": "distance",
		"kg": "weight", "kgs": "weight", "kilogram": "weight", "kilograms": "weight", "gram": "weight", "grams": "weight",
		"lb": "weight", "lbs": "weight", "oz": "weight", "ounce": "weight", "ounces": "weight", "tonne": "weight", "tonnes": "weight",
		"liter": "volume", "liters": "volume", "litre": "volume", "litres": "volume", "ml": "volume", "gallon": "volume", "gallons": "volume",
		"quart": "volume", "quarts": "volume", "pint": "volume", "pints": "volume", "tbsp": "volume", "tsp": "volume",
		"tablespoon": "volume", "tablespoons": "volume", "teaspoon": "volume", "teaspoons": "volume",
		"mph": "speed", "kph": "speed", "km/h": "speed", "knots": "speed", "m/s": "speed",
		"acre": "area", "acres": "area", "hectare": "area", "hectares": "area", "km²": "area", "m²": "area",
	}
})

// currencyCodes are ISO 4217 codes and currency names people write beside
// an amount ("40 eur", "100 dollars").
var currencyCodes = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"usd": true, "eur": true, "gbp": true, "jpy": true, "chf": true, "cad": true, "aud": true, "nzd": true, "cny": true,
		"inr": true, "brl": true, "mxn": true, "sek": true, "nok": true, "dkk": true, "pln": true, "zar": true, "sgd": true,
		"hkd": true, "krw": true, "rub": true, "czk": true, "huf": true, "ils": true, "aed": true,
		"dollar": true, "dollars": true, "euro": true, "euros": true, "yen": true, "rupee": true, "rupees": true,
		"franc": true, "francs": true, "peso": true, "pesos": true, "bucks": true,
	}
})

// currencySymbols are written before or after an amount ("€40", "40€").
const currencySymbols = "$€£¥₹₩₽₺₪₫฿₱₴₦"

// zoneNames are time zones as the IANA database names them, each with its
// city: a clock time "in" one of those cities asks about time zones. The
// list is the database's own names (a test loads each), for the cities
// people most often name for a time.
var zoneNames = []string{
	"Europe/London", "Europe/Paris", "Europe/Berlin", "Europe/Madrid", "Europe/Rome", "Europe/Amsterdam", "Europe/Brussels",
	"Europe/Vienna", "Europe/Zurich", "Europe/Stockholm", "Europe/Oslo", "Europe/Copenhagen", "Europe/Helsinki", "Europe/Warsaw",
	"Europe/Prague", "Europe/Budapest", "Europe/Athens", "Europe/Istanbul", "Europe/Moscow", "Europe/Lisbon", "Europe/Dublin", "Europe/Kyiv",
	"America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles", "America/Phoenix", "America/Toronto",
	"America/Vancouver", "America/Mexico_City", "America/Sao_Paulo", "America/Argentina/Buenos_Aires", "America/Bogota", "America/Lima",
	"America/Santiago", "America/Anchorage", "America/Halifax", "Pacific/Honolulu", "Pacific/Auckland",
	"Asia/Tokyo", "Asia/Seoul", "Asia/Shanghai", "Asia/Hong_Kong", "Asia/Singapore", "Asia/Taipei", "Asia/Manila", "Asia/Bangkok",
	"Asia/Jakarta", "Asia/Kolkata", "Asia/Dubai", "Asia/Karachi", "Asia/Tehran", "Asia/Jerusalem", "Asia/Riyadh",
	"Africa/Cairo", "Africa/Lagos", "Africa/Nairobi", "Africa/Johannesburg", "Africa/Casablanca",
	"Australia/Sydney", "Australia/Melbourne", "Australia/Brisbane", "Australia/Perth", "Australia/Adelaide",
}

// zoneAbbreviations are time zone abbreviations written after a clock time
// ("9am PST").
var zoneAbbreviations = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"utc": true, "gmt": true, "est": true, "edt": true, "cst": true, "cdt": true, "mst": true, "mdt": true, "pst": true, "pdt": true,
		"cet": true, "cest": true, "bst": true, "ist": true, "jst": true, "kst": true, "aest": true, "aedt": true, "sgt": true, "hkt": true,
	}
})

// topLevelDomains are the endings of the host names people most often
// write bare ("acme.io"); endings that are also file extensions (.md,
// .sh, .rs, .py, .ai, .app) are left out.
var topLevelDomains = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"com": true, "org": true, "net": true, "io": true, "dev": true, "co": true, "info": true, "biz": true, "xyz": true,
		"tech": true, "cloud": true, "shop": true, "uk": true, "de": true, "fr": true, "nl": true, "eu": true, "ca": true,
		"au": true, "jp": true, "ch": true, "se": true, "es": true,
	}
})

// notFlights are two-letter prefixes of codes that look like flight
// numbers and are something else (ES2015, IE11, FY2024, RS232, PG13).
var notFlights = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"ES": true, "IE": true, "FY": true, "CY": true, "RS": true, "PG": true, "RX": true, "HD": true, "PO": true,
		"PR": true, "ID": true, "QA": true, "SR": true, "TS": true,
	}
})

// token is one whitespace-separated field of the request: raw as written,
// w without surrounding punctuation.
type token struct{ raw, w string }

// kindsOf returns the kinds of the payload of text, each as the words
// tool descriptions use for it, separated by spaces.
func kindsOf(text string) string {
	fields := strings.Fields(text)
	toks := make([]token, 0, len(fields))
	for _, f := range fields {
		w := strings.Trim(f, ".,;:!?()[]<>'\"")
		if w != "" {
			toks = append(toks, token{f, w})
		}
	}
	var out []string
	for i := 0; i < len(toks); i++ {
		k, n := kindAt(toks, i)
		if k != "" {
			out = append(out, k)
		}
		i += n
	}
	if cronIn(toks) {
		out = append(out, "cron schedule")
	}
	return strings.Join(out, " ")
}

// kindAt names the kind of the payload starting at toks[i], and how many
// tokens after it that payload spans.
func kindAt(toks []token, i int) (kind string, more int) {
	if k, n := operationKind(toks, i); k != "" {
		return k, n
	}
	if k, n := periodKind(toks, i); k != "" {
		return k, n
	}
	if plainWord(toks[i].w) && !months()[strings.ToLower(toks[i].w)] {
		return "", 0 // most of a request: no kind begins with a plain word but a month's name
	}
	if k := formKind(toks[i].w); k != "" {
		return k, 0
	}
	if k, n := phraseKind(toks, i); k != "" {
		return k, n
	}
	return nameKind(toks[i].w), 0
}

// formKind names a word by a fixed form: a URI, an address, an id, a
// code with a check digit.
func formKind(w string) string {
	lw := strings.ToLower(w)
	if scheme, _, ok := strings.Cut(lw, "://"); ok {
		return schemeKinds()[scheme]
	}
	switch {
	case strings.HasPrefix(lw, "www."):
		return "url"
	case strings.HasPrefix(lw, "git@") && strings.Contains(lw, ":"):
		return "git repository"
	case isEmail(w):
		return "email"
	case isUUID(w):
		return "uuid id"
	case isIP(w):
		return "ip network"
	case isCIDR(w):
		return "ip network subnet cidr"
	case isISBN(w):
		return "isbn book"
	case isDate(w): // before isPhone: 31.12.2025 is no phone number
		return "date"
	case isPhone(w):
		return "phone"
	case isVersion(w):
		return "version"
	case isColor(w):
		return "color"
	case isFlight(w):
		return "flight"
	case isTracking(w):
		return "tracking shipment package"
	case isIssueKey(w):
		return "issue ticket key"
	case isHexOf(lw, "0x", 40):
		return "blockchain wallet address"
	case isHexOf(lw, "0x", 64):
		return "blockchain transaction hash"
	case isMavenCoordinate(lw):
		return "maven artifact dependency"
	case lw == "@hourly" || lw == "@daily" || lw == "@weekly" || lw == "@monthly" || lw == "@yearly":
		return "cron schedule"
	case isExpression(lw):
		return "math calculate expression"
	}
	return hashKind(w)
}

// phraseKind names what a number says with the words around it: a clock
// time, a quantity, a date, a sum, a percentage, coordinates.
func phraseKind(toks []token, i int) (kind string, more int) {
	next := func(j int) string { return lowerAt(toks, i+j) }
	w := next(0)
	if k, n := clockKind(toks, i); k != "" {
		return k, n
	}
	if unit, ok := quantity(w, next(1)); ok {
		n := 0
		if unit == next(1) {
			n = 1
		}
		kind := unitKinds()[unit]
		if kind == "" {
			kind = "money amount currency"
		} else {
			kind += " unit measurement"
		}
		if to := next(n + 1); (to == "in" || to == "to" || to == "into") && isUnit(next(n+2)) {
			kind += " convert conversion"
		}
		return kind, n
	}
	switch p := strings.TrimSuffix(w, "%"); {
	case isDay(w) && months()[next(1)] || months()[w] && isDay(next(1)):
		return "date", 1 // 12 may, march 3rd
	case p != w && isDecimal(p) && next(1) == "of" && isAmount(next(2)):
		return "math calculate percentage", 2
	case p != w && isDecimal(p):
		return "percentage", 0
	case isCoordinate(w, 90) && strings.HasSuffix(toks[i].raw, ",") && isCoordinate(next(1), 180):
		return "coordinates latitude longitude location", 1
	}
	return "", 0
}

// clockKind names a time of day at toks[i] ("3pm", "3 pm", "15:30"),
// with its time zone if one follows ("9am PST", "7pm in tokyo").
func clockKind(toks []token, i int) (kind string, more int) {
	next := func(j int) string { return lowerAt(toks, i+j) }
	w, ampm := next(0), next(1) == "am" || next(1) == "pm"
	n := 0
	switch {
	case ampm && (isClock(w) || isClock(w+"pm")):
		n = 1 // "3 pm", "3:30 pm"
	case !isClock(w):
		return "", 0
	}
	if zoneAbbreviations()[next(n+1)] {
		return "time timezone", n + 1
	}
	if z := zoneAt(toks, i+n+2); z > 0 && (next(n+1) == "in" || next(n+1) == "to") {
		return "time timezone", n + 1 + z
	}
	return "time", n
}

// plainWord reports whether w is only ASCII letters, apostrophes and
// dashes: a word that names no kind by itself.
func plainWord(w string) bool {
	for _, c := range []byte(w) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '\'' || c == '-') {
			return false
		}
	}
	return true
}

// lowerAt is toks[i]'s word in lower case, "" past the end.
func lowerAt(toks []token, i int) string {
	if i < len(toks) {
		return strings.ToLower(toks[i].w)
	}
	return ""
}

// nameKind names a word by how it ends or begins: a time zone's name, a
// host name, a document or media file.
func nameKind(w string) string {
	if isZoneName(w) {
		return "time timezone"
	}
	if isDomain(strings.ToLower(w)) {
		return "domain website"
	}
	if j := strings.LastIndexByte(w, '.'); j > 0 && !strings.Contains(w[j:], "/") {
		return extensionKinds()[strings.ToLower(w[j+1:])]
	}
	return ""
}

// operations name each arithmetic operation in the words calculators'
// descriptions use for it ("sum", "multiply", "evaluate a math
// expression"), keyed by the words people write for it: operators between
// two numbers ("2340 plus 12", "7 * 6", "1200 divided by 7"), and verbs and
// nouns before them ("add 3 and 4", "subtract 5 from 9", "the sum of 3
// and 4"). A spaced "-" is no operator: "3 - 5" is as often a range; nor
// is "x": "3 x 8" is as often sets or a size, nor "over": "3 over 2
// days".
var operations = sync.OnceValue(func() (m struct{ between, before map[string]string }) {
	const (
		add = "math calculate arithmetic sum add addition"
		sub = "math calculate arithmetic subtract subtraction"
		mul = "math calculate arithmetic multiply multiplication"
		div = "math calculate arithmetic divide division"
		pow = "math calculate arithmetic power exponent"
	)
	m.between = map[string]string{
		"plus": add, "+": add, "added to": add,
		"minus": sub, "less": sub,
		"times": mul, "*": mul, "×": mul, "multiplied by": mul,
		"/": div, "÷": div, "divided by": div,
		"^": pow, "raised to": pow,
	}
	m.before = map[string]string{
		"add": add, "sum": add, "total": add,
		"subtract": sub, "deduct": sub,
		"multiply": mul,
		"divide":   div,
	}
	return m
})

// periodKind names a span of time counted back from now ("over the last
// 3 months", "in the past two weeks", "the previous 30 days"): a request
// about how something went over it wants its history. A single period
// ("last month") names none: it is a date, not a span.
func periodKind(toks []token, i int) (kind string, more int) {
	switch lowerAt(toks, i) {
	case "last", "past", "previous":
	default:
		return "", 0
	}
	count, unit := lowerAt(toks, i+1), lowerAt(toks, i+2)
	switch count {
	case "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "few", "several", "couple":
	default:
		if n, err := strconv.Atoi(count); err != nil || n < 2 {
			return "", 0
		}
	}
	if count == "couple" && unit == "of" {
		unit = lowerAt(toks, i+3)
	}
	switch strings.TrimSuffix(unit, "s") {
	case "hour", "day", "week", "month", "quarter", "year":
		return "history trend", 2
	}
	return "", 0
}

// operationKind names a calculation written with words at toks[i], and
// how many tokens after it the calculation spans.
func operationKind(toks []token, i int) (kind string, more int) {
	next := func(j int) string { return lowerAt(toks, i+j) }
	ops := operations()
	if isAmount(next(0)) { // 3 plus 4, 1200 divided by 7
		for n := 1; n <= 2; n++ {
			op := strings.Join([]string{next(1), next(2)}[:n], " ")
			if k := ops.between[op]; k != "" && isAmount(next(n+1)) {
				return k, n + 1
			}
		}
		return "", 0
	}
	k := ops.before[next(0)] // add 3 and 4, the sum of 3 and 4
	n := 1
	if next(1) == "of" || next(1) == "between" {
		n = 2
	}
	switch next(n + 1) {
	case "and", "to", "from", "by", "with":
		if k != "" && isAmount(next(n)) && isAmount(next(n+2)) {
			return k, n + 2
		}
	}
	return "", 0
}
