package config

import (
	"errors"
	"fmt"
	"strings"
)

// MaxNameLen is the longest server name. The bridge later builds tool names
// mcp_<server>_<tool> from it, which must stay short.
const MaxNameLen = 64

// SanitizeName maps a raw server name onto the server-name charset:
// letters, digits, '_', '.' and '-', starting and ending with a letter or
// digit, at most [MaxNameLen] bytes. Each run of other characters becomes
// one '_'. It fails when raw is empty or keeps no letter or digit.
func SanitizeName(raw string) (string, error) {
	if raw == "" {
		return "", errors.New("empty server name: give every server a name")
	}
	var b strings.Builder
	replaced := false
	for _, r := range raw {
		if isNameChar(r) {
			b.WriteRune(r)
			replaced = false
		} else if !replaced {
			b.WriteByte('_')
			replaced = true
		}
	}
	s := strings.Trim(b.String(), "_.-")
	if len(s) > MaxNameLen {
		s = strings.TrimRight(s[:MaxNameLen], "_.-")
	}
	if s == "" {
		return "", fmt.Errorf("server name %s has no letters or digits: use letters, digits, '_', '.' or '-'", quote(raw))
	}
	return s, nil
}

// checkName reports whether name is already in the charset.
func checkName(name string) error {
	s, err := SanitizeName(name)
	if err != nil {
		return err
	}
	if s != name {
		return fmt.Errorf("server name %s is not allowed: use letters, digits, '_', '.' or '-' (at most %d)", quote(name), MaxNameLen)
	}
	return nil
}

func isNameChar(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
		r == '_' || r == '.' || r == '-'
}

// isName reports whether s could be a stored server's name as typed.
func isName(s string) bool {
	return checkName(s) == nil
}

// nameNote begins every note about a server's name, so that an explicit
// name can replace them.
const nameNote = "name "

// setName gives e the sanitized form of raw, noting any change.
func setName(e *Entry, raw string) error {
	name, err := SanitizeName(raw)
	if err != nil {
		return err
	}
	if name != raw {
		e.Notes = append(e.Notes, fmt.Sprintf("%s%s stored as %s", nameNote, quote(raw), name))
	}
	e.Name = name
	return nil
}
