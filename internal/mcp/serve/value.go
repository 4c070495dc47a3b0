package serve

import (
	"encoding/json"
	"errors"
	"strconv"
	"unicode/utf8"
)

// decodeValue decodes valid JSON into what schema.Validate takes (the
// values of encoding/json with UseNumber: map[string]any, []any, string,
// json.Number, bool, nil) in one pass without reflection: the arguments
// of every tools/call are decoded so. Invalid JSON is an error.
func decodeValue(data []byte) (any, error) {
	if !json.Valid(data) {
		return nil, errors.New("arguments are not valid JSON")
	}
	d := valueDecoder{data: data}
	return d.value(), nil
}

type valueDecoder struct {
	data []byte
	i    int
}

func (d *valueDecoder) space() {
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case ' ', '\t', '\r', '\n':
			d.i++
		default:
			return
		}
	}
}

// value decodes the value at d.i; the input is valid JSON.
func (d *valueDecoder) value() any {
	d.space()
	switch c := d.data[d.i]; c {
	case '{':
		d.i++
		m := map[string]any{}
		for {
			d.space()
			if d.data[d.i] == '}' {
				d.i++
				return m
			}
			if d.data[d.i] == ',' {
				d.i++
				d.space()
			}
			k := d.str()
			d.space()
			d.i++ // ':'
			m[k] = d.value()
		}
	case '[':
		d.i++
		a := []any{}
		for {
			d.space()
			if d.data[d.i] == ']' {
				d.i++
				return a
			}
			if d.data[d.i] == ',' {
				d.i++
			}
			a = append(a, d.value())
		}
	case '"':
		return d.str()
	case 't':
		d.i += 4
		return true
	case 'f':
		d.i += 5
		return false
	case 'n':
		d.i += 4
		return nil
	}
	start := d.i
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return json.Number(d.data[start:d.i])
		}
		d.i++
	}
	return json.Number(d.data[start:d.i])
}

// str decodes the string at d.i as encoding/json does: escapes resolved,
// invalid UTF-8 and lone surrogates as U+FFFD.
func (d *valueDecoder) str() string {
	d.i++ // the opening quote
	start := d.i
	for d.i < len(d.data) {
		c := d.data[d.i]
		if c == '"' {
			s := string(d.data[start:d.i])
			d.i++
			return s
		}
		if c == '\\' || c >= utf8.RuneSelf {
			break
		}
		d.i++
	}
	// The slow way, for strings with escapes or beyond ASCII.
	end := d.i
	for end < len(d.data) && d.data[end] != '"' {
		if d.data[end] == '\\' {
			end++
		}
		end++
	}
	var s string
	if err := json.Unmarshal(d.data[start-1:end+1], &s); err != nil {
		s = strconv.Quote(err.Error()) // unreachable: the input is valid
	}
	d.i = end + 1
	return s
}
