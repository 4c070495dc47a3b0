package web

import (
	"bytes"
	"mime"
	"strings"
	"unicode/utf8"
)

// mediaType is the lower-case media type of a Content-Type header.
func mediaType(contentType string) string {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return ""
	}
	return mt
}

// textTypes are media types outside text/* that hold text.
var textTypes = []string{
	"application/json", "application/xml", "application/javascript",
	"application/ecmascript", "application/x-www-form-urlencoded",
	"application/x-ndjson", "application/yaml", "application/toml",
	"application/x-sh", "application/sql", "application/graphql",
}

// isText reports whether a body with this Content-Type is text. Without a
// useful type, the first bytes decide: valid UTF-8 without NUL bytes.
func isText(contentType string, body []byte) bool {
	mt := mediaType(contentType)
	switch {
	case strings.HasPrefix(mt, "text/"), strings.HasSuffix(mt, "+json"), strings.HasSuffix(mt, "+xml"):
		return true
	case mt == "" || mt == "application/octet-stream":
		head := body[:min(len(body), 1024)]
		for len(head) > 0 && !utf8.FullRune(head[max(0, len(head)-utf8.UTFMax):]) {
			head = head[:len(head)-1]
		}
		return utf8.Valid(head) && bytes.IndexByte(head, 0) < 0
	}
	for _, t := range textTypes {
		if mt == t {
			return true
		}
	}
	return false
}

// isHTML reports whether the body is an HTML page.
func isHTML(contentType string, body []byte) bool {
	switch mediaType(contentType) {
	case "text/html", "application/xhtml+xml":
		return true
	case "":
		start := strings.ToLower(string(bytes.TrimSpace(body[:min(len(body), 512)])))
		return strings.HasPrefix(start, "<!doctype html") || strings.HasPrefix(start, "<html")
	}
	return false
}

// toUTF8 converts a Latin-1 body to UTF-8; other bodies are taken as UTF-8
// (invalid bytes become U+FFFD when the text is cleaned).
func toUTF8(contentType string, body []byte) []byte {
	_, params, _ := mime.ParseMediaType(contentType)
	switch strings.ToLower(params["charset"]) {
	case "iso-8859-1", "latin1", "latin-1", "l1":
		out := make([]byte, 0, len(body))
		for _, c := range body {
			out = utf8.AppendRune(out, rune(c))
		}
		return out
	}
	return body
}
