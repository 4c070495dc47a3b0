package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"

	"tai/internal/catalog"
	"tai/internal/tools"
)

// runTai runs one command line in this process and returns its exit code,
// stdout and stderr.
func runTai(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	env := map[string]string{"TAI_HOME": t.TempDir()}
	code := Run(context.Background(), NewApp(strings.NewReader(""), &stdout, &stderr, func(k string) string { return env[k] }), args)
	return code, stdout.String(), stderr.String()
}

func TestToolsList_EveryToolWithItsSafety(t *testing.T) {
	code, out, errOut := runTai(t, "tools", "list")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	native := catalog.Native()
	for _, tl := range native {
		line := regexp.MustCompile(`(?m)^  ` + tl.Name + ` +(\w+) +(.*)$`).FindStringSubmatch(out)
		if line == nil {
			t.Errorf("%s is not listed", tl.Name)
			continue
		}
		if line[1] != tl.Safety() || line[2] != summary(tl.Description) || line[2] == "" {
			t.Errorf("%s listed as %q %q", tl.Name, line[1], line[2])
		}
	}
	for _, want := range []string{"\nmemory\n", "\nvault\n", "\nprofiles\n", "\nplan\n",
		fmt.Sprintf("\n%d tools: ", len(native))} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q", want)
		}
	}
	if strings.Contains(out, " \n") {
		t.Error("lines end in spaces")
	}
}

func TestToolsList_JSONIsTheServedSurface(t *testing.T) {
	code, out, errOut := runTai(t, "tools", "list", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got []struct {
		Name, Group, Safety, Description string
		Schema                           json.RawMessage
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	byName := map[string]*tools.Tool{}
	for _, tl := range catalog.Native() {
		byName[tl.Name] = tl
	}
	if len(got) != len(byName) {
		t.Errorf("%d tools in JSON, %d in the catalogue", len(got), len(byName))
	}
	for _, g := range got {
		tl := byName[g.Name]
		if tl == nil {
			t.Errorf("unknown tool %q", g.Name)
			continue
		}
		var want, have any
		_ = json.Unmarshal(tl.Schema, &want)
		_ = json.Unmarshal(g.Schema, &have)
		if g.Group != tl.Group || g.Safety != tl.Safety() || g.Description != tl.Description || !cmp.Equal(want, have) {
			t.Errorf("%s: JSON differs from the tool", g.Name)
		}
	}
}

func TestToolsList_UntrustedTextIsInert(t *testing.T) {
	bridged := &tools.Tool{Name: "mcp_evil_x\x1b]0;pwned\x07", Server: "evil",
		Description: "Looks fine\u009b31m.\u202e Then \x1b[2Jclears the screen.",
		Schema:      json.RawMessage(`{"type":"object"}`)}
	all := append(catalog.Native(), bridged)

	var text bytes.Buffer
	if err := printTools(&text, all); err != nil {
		t.Fatal(err)
	}
	if i := strings.IndexFunc(text.String(), invisible); i >= 0 {
		t.Errorf("text listing holds %U", []rune(text.String()[i:])[0])
	}
	// Shown, not hidden: the escapes and the invisible override appear.
	if !regexp.MustCompile(`\nmcp evil\n  mcp_evil_x\\x1b\]0;pwned\\x07 +asks +Looks fine<U\+009B>31m\.<U\+202E> Then \\x1b\[2Jclears the screen\.\n`).MatchString(text.String()) {
		t.Errorf("bridged tool not listed last under its server:\n%s", text.String()[len(text.String())-300:])
	}

	var js bytes.Buffer
	if err := printToolsJSON(&js, all); err != nil {
		t.Fatal(err)
	}
	if i := strings.IndexFunc(js.String(), invisible); i >= 0 {
		t.Errorf("JSON listing holds %U", []rune(js.String()[i:])[0])
	}
	var back []struct{ Name, Description, Server string }
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	last := back[len(back)-1]
	if last.Name != bridged.Name || last.Description != bridged.Description || last.Server != "evil" {
		t.Errorf("escaping changed the data: %+v", last)
	}
}

func invisible(r rune) bool {
	return r != '\n' && r != '\t' && (unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cf, r))
}

func TestToolsList_BadUsage(t *testing.T) {
	for _, args := range [][]string{{"tools", "list", "extra"}, {"tools", "list", "--bogus"}} {
		code, out, errOut := runTai(t, args...)
		if code != ExitUsage || out != "" || !strings.HasPrefix(errOut, "tai: ") || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}

func TestSummary(t *testing.T) {
	long := strings.Repeat("word ", 30)
	for _, tt := range []struct{ in, want string }{
		{"Read a file. Then more.", "Read a file."},
		{"Ask the person a\nquestion. Use it rarely.", "Ask the person a question."},
		{"One line summary\nDetails follow.", "One line summary Details follow."},
		{"First paragraph\n\nSecond.", "First paragraph"},
		{"Is it? Yes.", "Is it?"},
		{long, strings.TrimSpace(strings.Repeat("word ", 20)) + "…"},
		{"Red \x1b[31malert\x1b[0m.", `Red \x1b[31malert\x1b[0m.`},
	} {
		if got := summary(tt.in); got != tt.want {
			t.Errorf("summary(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
