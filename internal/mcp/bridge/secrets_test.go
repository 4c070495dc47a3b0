package bridge

import (
	"context"
	"strings"
	"testing"

	"tai/internal/mcp/config"
	"tai/internal/tools"
)

// Context7's docs give Cursor `--api-key ${CTX7_KEY}` in args. The key is
// substituted from the environment, so the consent screen, the title an
// advance approval prints, and the error of a failed start show
// [env:CTX7_KEY], never the key.
func TestAdd_EnvironmentKeyInArgsIsMaskedOnScreenAndInErrors(t *testing.T) {
	const key = "ctx7sk-0123456789abcdef"
	f := newFixture(t)
	f.env["CTX7_KEY"] = key
	e := config.Entry{Name: "context7", Transport: config.Stdio, Command: "/bin/false",
		Args: []string{"--api-key", "${CTX7_KEY}"}, Source: config.SourceJSON}
	var shown []tools.Consent
	_, err := f.b.Add(context.Background(), AddRequest{Entries: []config.Entry{e}}, asking(true, &shown), nil)
	if err == nil {
		t.Fatal("a server that exits at once was stored")
	}
	if len(shown) != 1 {
		t.Fatalf("consent shown %d times", len(shown))
	}
	c := shown[0]
	for what, s := range map[string]string{"title": c.Title, "detail": c.Detail, "error": err.Error()} {
		if strings.Contains(s, key) {
			t.Errorf("the %s shows the key: %s", what, s)
		}
	}
	if !strings.Contains(c.Title, "--api-key [env:CTX7_KEY]") || !strings.Contains(err.Error(), "--api-key [env:CTX7_KEY]") {
		t.Errorf("title %q / error %q do not name the key's source", c.Title, err)
	}
}
