package config

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNormalize_DeepTOMLIsRefusedBeforeParsing: shapes that make the TOML
// parser slow down superlinearly are refused by a linear scan.
func TestNormalize_DeepTOMLIsRefusedBeforeParsing(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a = " + strings.Repeat("{a=", 300000),
			"TOML nests deeper than 32 levels at line 1: paste the [mcp_servers.…] part of the config"},
		{"x = 1\na = " + strings.Repeat("[", 1<<19),
			"TOML nests deeper than 32 levels at line 2: paste the [mcp_servers.…] part of the config"},
		{strings.Repeat("a.", 400000) + "a = 1",
			"TOML line 1 has more than 64 dotted parts: paste the [mcp_servers.…] part of the config"},
	}
	for _, tt := range tests {
		_, err := Normalize(tt.in, Options{})
		if err == nil || err.Error() != tt.want {
			t.Errorf("err = %v\nwant  %s", err, tt.want)
		}
	}
}

// TestCheckTOMLShape_StringsAndCommentsDoNotCount: brackets and dots inside
// strings of every kind, and in comments, are not structure.
func TestCheckTOMLShape_StringsAndCommentsDoNotCount(t *testing.T) {
	deep := strings.Repeat("[{", 40)
	dots := strings.Repeat(".", 100)
	in := "[mcp_servers.x]\n" +
		"command = \"srv\"\n" +
		"args = [\"" + deep + dots + "\", '" + deep + dots + "', \"esc \\\" " + deep + "\"]\n" +
		"cwd = \"\"\"\n" + deep + dots + "\n\"\"\"\n" +
		"# " + deep + dots + "\n" +
		"env = { A = '''" + deep + "\n" + dots + "''' }\n"
	got, err := Normalize(in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{{Name: "x", Transport: Stdio, Command: "srv", Source: SourceTOML,
		Args: []string{deep + dots, deep + dots, `esc " ` + deep},
		Cwd:  deep + dots + "\n",
		Env:  map[string]string{"A": deep + "\n" + dots}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestNormalize_JSONC: comments and trailing commas are read the way VS
// Code reads them, and never inside strings.
func TestNormalize_JSONC(t *testing.T) {
	in := "/* lead */ {\n" +
		"  \"mcpServers\": { // servers\n" +
		"    \"x\": {\"url\": \"https://a.example/mcp//x\", /* k */ \"headers\": {\"A\": \"/* not a comment */,}\",},},\n" +
		"  },\n" +
		"}\n"
	got, err := Normalize(in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{{Name: "x", Transport: HTTP, URL: "https://a.example/mcp//x", Source: SourceJSON,
		Headers: map[string]string{"A": "/* not a comment */,}"}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// Positions count the blanked comments, so they point into the paste.
	_, err = Normalize("{ /* c */ \"mcpServers\": { \"x\" { } } }", Options{})
	if want := "invalid JSON at line 1, column 31: invalid character '{' after object key"; err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant  %s", err, want)
	}
}
