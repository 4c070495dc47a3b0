package selector

import "strings"

// Kinds of payload. The words inside an address, a phone number or a
// file name are the request's payload and count little (quotedWeight),
// but what kind of thing the payload is says much about the tool: a phone
// number is for a phone or SMS tool, an email address for mail, a .xlsx
// file for a spreadsheet tool. kindsOf names those kinds in the words tool
// descriptions use; they count at kindWeight.

// kindWeight is what a kind of payload counts for: evidence about the
// tool, weaker than the person's own words for it.
const kindWeight = 0.5

// extensionKinds are the kinds of common document and media file
// extensions. Source files are left out: the native file tools serve
// them whatever their language.
var extensionKinds = map[string]string{
	"csv": "spreadsheet csv", "tsv": "spreadsheet", "xlsx": "spreadsheet excel", "xls": "spreadsheet excel", "ods": "spreadsheet",
	"png": "image", "jpg": "image", "jpeg": "image", "gif": "image", "webp": "image", "svg": "image", "bmp": "image", "tiff": "image",
	"pdf": "pdf document", "doc": "document word", "docx": "document word", "odt": "document", "rtf": "document",
	"pptx": "presentation slides", "ppt": "presentation slides", "key": "presentation",
	"mp3": "audio", "wav": "audio", "flac": "audio", "ogg": "audio", "m4a": "audio",
	"mp4": "video", "mov": "video", "mkv": "video", "webm": "video", "avi": "video",
	"ics": "calendar event", "vcf": "contact", "eml": "email",
}

// kindsOf returns the kinds of the payload words of text: an email
// address, a phone number, a web address (url), a document or media file.
func kindsOf(text string) string {
	var out []string
	for _, f := range strings.Fields(text) {
		f = strings.Trim(f, ".,;:!?()[]<>'\"")
		if f == "" {
			continue
		}
		switch {
		case isEmail(f):
			out = append(out, "email")
		case isPhone(f):
			out = append(out, "phone")
		case strings.HasPrefix(f, "http://") || strings.HasPrefix(f, "https://") || strings.HasPrefix(f, "www."):
			out = append(out, "url")
		default:
			if i := strings.LastIndexByte(f, '.'); i > 0 && !strings.Contains(f[i:], "/") {
				if k, ok := extensionKinds[strings.ToLower(f[i+1:])]; ok {
					out = append(out, k)
				}
			}
		}
	}
	return strings.Join(out, " ")
}

// isEmail reports whether w looks like an email address: a local part, an
// @ and a domain with a dot.
func isEmail(w string) bool {
	local, domain, ok := strings.Cut(w, "@")
	return ok && local != "" && strings.Contains(domain, ".") && !strings.ContainsAny(domain, "@/")
}

// isPhone reports whether w looks like a phone number: seven to fifteen
// digits and nothing but digits and separators, written with a leading +
// (+15551234567) or grouped by dashes or dots ending in a group of at
// least four digits (555-123-4567, not the date 2024-01-02).
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
	return digits >= 7 && digits <= 15 && (plus || seps > 0 && group >= 4)
}
