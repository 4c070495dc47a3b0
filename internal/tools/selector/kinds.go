package selector

import (
	"strings"
	"sync"
)

// Kinds of payload. The words inside an address, a phone number or a
// file name are the request's payload and count little (quotedWeight),
// but what kind of thing the payload is says much about the tool: a phone
// number is for a phone or SMS tool, an email address for mail, a .xlsx
// file for a spreadsheet tool, 10.4.0.0/22 for a network tool. kindsOf
// names those kinds in the words tool descriptions use; they count at
// kindWeight.
//
// A kind is named only where its form leaves no doubt: a link or another
// URI, an email or IP address, a phone number, a file by its extension, a
// bare domain, and the two forms a later set showed to help (a version
// and a flight number). Every other kind a rule once named (dates,
// amounts, units, time zones, hashes, issue keys, …) was retired when
// meaning came in, since it changed only the requests it was written for:
// docs/benchmarks.md, "Tool selection", gives the figures.

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

// kindsOf returns the kinds of the payload of text, each as the words
// tool descriptions use for it, separated by spaces.
func kindsOf(text string) string {
	var out []string
	for _, f := range strings.Fields(text) {
		w := strings.Trim(f, ".,;:!?()[]<>'\"")
		if w == "" || plainWord(w) {
			continue // most of a request: no kind is a plain word
		}
		k := formKind(w)
		if k == "" {
			k = nameKind(w)
		}
		if k != "" {
			out = append(out, k)
		}
	}
	return strings.Join(out, " ")
}

// formKind names a word by a fixed form: a URI, an address, a number
// written as a phone number, a version or a flight.
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
	case isIP(w):
		return "ip network"
	case isCIDR(w):
		return "ip network subnet cidr"
	case isDate(w): // no kind, but no phone number either: 31.12.2025
		return ""
	case isPhone(w):
		return "phone"
	case isVersion(w):
		return "version"
	case isFlight(w):
		return "flight"
	}
	return ""
}

// nameKind names a word by how it ends: a host name, a document or media
// file.
func nameKind(w string) string {
	if isDomain(strings.ToLower(w)) {
		return "domain website"
	}
	if j := strings.LastIndexByte(w, '.'); j > 0 && !strings.Contains(w[j:], "/") {
		return extensionKinds()[strings.ToLower(w[j+1:])]
	}
	return ""
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
