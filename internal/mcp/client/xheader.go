package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"

	"tai/internal/mcp/wire"
)

// A tool's x-mcp-header annotations (2026-07-28, Streamable HTTP): the
// arguments a server wants mirrored into Mcp-Param-{Name} headers, so
// that intermediaries can route on them without reading the body. A
// client on HTTP must send them, and must drop a tool whose annotations
// break the rules rather than call it.

// paramHeader is one annotated argument: its path of properties keys from
// the schema root, the header's name part and the argument's type.
type paramHeader struct {
	path []string
	name string
	typ  string // string, integer or boolean
}

const xHeaderKey = "x-mcp-header"

// paramHeaders reads the annotations of an inputSchema and checks them:
// each value a non-empty token, unique regardless of case, on a string,
// integer or boolean property reached from the root through properties
// keys only. An annotation anywhere else makes the tool invalid.
func paramHeaders(schema json.RawMessage) ([]paramHeader, error) {
	if !bytes.Contains(schema, []byte(xHeaderKey)) {
		return nil, nil
	}
	var root any
	if err := json.Unmarshal(schema, &root); err != nil {
		return nil, nil // an unreadable schema is the tool's own problem
	}
	var out []paramHeader
	seen := map[string]bool{}
	var walk func(node map[string]any, path []string) error
	walk = func(node map[string]any, path []string) error {
		props, _ := node["properties"].(map[string]any)
		for key, v := range props {
			prop, ok := v.(map[string]any)
			if !ok {
				continue
			}
			p := append(append([]string(nil), path...), key)
			if raw, ok := prop[xHeaderKey]; ok {
				h, err := annotation(raw, prop, p)
				if err != nil {
					return err
				}
				if seen[strings.ToLower(h.name)] {
					return fmt.Errorf("x-mcp-header %q appears twice", h.name)
				}
				seen[strings.ToLower(h.name)] = true
				out = append(out, h)
			}
			if err := walk(prop, p); err != nil {
				return err
			}
		}
		return nil
	}
	obj, _ := root.(map[string]any)
	if err := walk(obj, nil); err != nil {
		return nil, err
	}
	if n := countKey(root); n != len(out) {
		return nil, fmt.Errorf("x-mcp-header outside a chain of properties from the schema root")
	}
	return out, nil
}

func annotation(raw any, prop map[string]any, path []string) (paramHeader, error) {
	name, ok := raw.(string)
	if !ok || !isToken(name) {
		return paramHeader{}, fmt.Errorf("x-mcp-header %s is not a header name token", wire.Printable(fmt.Sprint(raw), 40))
	}
	typ, _ := prop["type"].(string)
	if typ != "string" && typ != "integer" && typ != "boolean" {
		return paramHeader{}, fmt.Errorf("x-mcp-header %q is on a property of type %q; only string, integer and boolean may be mirrored", name, typ)
	}
	return paramHeader{path: path, name: name, typ: typ}, nil
}

// isToken reports whether s is an RFC 9110 token (1*tchar).
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// countKey counts x-mcp-header keys anywhere in v.
func countKey(v any) int {
	n := 0
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if k == xHeaderKey {
				n++
			}
			n += countKey(x)
		}
	case []any:
		for _, x := range v {
			n += countKey(x)
		}
	}
	return n
}

// setParamHeaders adds an Mcp-Param header for each annotated argument
// present in args; an absent or null one is left out.
func setParamHeaders(h http.Header, hs []paramHeader, args json.RawMessage) {
	if len(hs) == 0 {
		return
	}
	var root map[string]any
	d := json.NewDecoder(bytes.NewReader(args))
	d.UseNumber()
	if d.Decode(&root) != nil {
		return
	}
	for _, ph := range hs {
		v := lookup(root, ph.path)
		if v == nil {
			continue
		}
		if s, ok := headerText(v, ph.typ); ok {
			h.Set("Mcp-Param-"+ph.name, wire.HeaderValue(s))
		}
	}
}

func lookup(root map[string]any, path []string) any {
	var v any = root
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// headerText writes an argument as its header text: strings as they are,
// integers in decimal, booleans as true or false. A value of another type
// than the schema's is not mirrored: the server refuses the call anyway.
func headerText(v any, typ string) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, typ == "string"
	case bool:
		return strconv.FormatBool(v), typ == "boolean"
	case json.Number:
		f, err := v.Float64()
		if err != nil || typ != "integer" || f != math.Trunc(f) || math.Abs(f) > 1<<53-1 {
			return "", false
		}
		return strconv.FormatInt(int64(f), 10), true
	}
	return "", false
}
