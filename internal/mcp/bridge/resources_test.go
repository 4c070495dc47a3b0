package bridge

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"tai/internal/vault"
)

func TestResources_ListsResourcesAndTemplatesOfAnEnabledServer(t *testing.T) {
	f := newFixture(t)
	f.add(t, featuresEntry(t, "feat"), true)
	got, err := f.b.Resources(context.Background(), "feat")
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range got.Resources {
		uris = append(uris, r.URI)
	}
	if strings.Join(uris, ",") != "test://a,test://b" {
		t.Errorf("resources = %v, want both pages", uris)
	}
	if len(got.Templates) != 1 || got.Templates[0].URITemplate != "test://item/{id}" {
		t.Errorf("templates = %+v", got.Templates)
	}
}

func TestReadResource_TextRedactedAndBlobDecoded(t *testing.T) {
	f := newFixture(t)
	f.add(t, featuresEntry(t, "feat"), true)
	ctx := context.Background()
	f.store.AddKnown("TOKEN", "sekrit-7f3a9")
	r, err := f.b.ReadResource(ctx, "feat", "test://item/sekrit-7f3a9")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Contents) != 1 || strings.Contains(r.Contents[0].Text, "sekrit") || !strings.HasPrefix(r.Contents[0].Text, "item ") {
		t.Errorf("text read = %+v, want it redacted", r.Contents)
	}
	r, err = f.b.ReadResource(ctx, "feat", "test://b")
	if err != nil {
		t.Fatal(err)
	}
	c := r.Contents[0]
	if !c.IsBlob || len(c.Blob) != 256 || c.Blob[255] != 255 || c.MIMEType != "application/octet-stream" {
		t.Fatalf("blob = %+v", c)
	}
	text, err := f.b.ModelText(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	if text != "[resource server=feat uri=test://b mimeType=application/octet-stream: 256 bytes of binary data, not shown]" {
		t.Errorf("the model sees %q", text)
	}
}

func TestReadResource_Refusals(t *testing.T) {
	f := newFixture(t)
	f.add(t, featuresEntry(t, "feat"), true)
	f.add(t, featuresEntry(t, "off"), false)
	f.add(t, fakeEntry(t, "plain", "echo"), true)
	ctx := context.Background()
	if _, err := f.b.SetFilter(ctx, "feat", vault.FilterResource, []string{"test://b"}, false); err != nil {
		t.Fatal(err)
	}
	var unavailable *UnavailableError
	for _, c := range []struct {
		server, uri, want string
		refused           bool
	}{
		{"nope", "test://a", `no MCP server named "nope"`, true},
		{"off", "test://a", "MCP server off is not enabled for profile default; run `tai mcp enable off`", true},
		{"plain", "test://a", "MCP server plain offers no resources (it declared no resources capability)", true},
		{"feat", "test://b", "resource test://b of MCP server feat is disabled for profile default", true},
		{"feat", "test://zzz", "reading test://zzz from MCP server feat: mcp error -32002: Resource not found", false},
		{"feat", "test://big", "past MCP_RESOURCE_MAX = 8MiB; tai does not hold it", false},
		{"feat", "test://\x1b[2Jx", `test://\x1b[2Jx`, false},
	} {
		_, err := f.b.ReadResource(ctx, c.server, c.uri)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %q: err = %v, want %q", c.server, c.uri, err, c.want)
			continue
		}
		if errors.As(err, &unavailable) != c.refused {
			t.Errorf("%s %q: refused = %v, want %v", c.server, c.uri, !c.refused, c.refused)
		}
		if strings.ContainsRune(err.Error(), 0x1b) {
			t.Errorf("%s: the error holds a raw escape: %q", c.server, err)
		}
	}
	if errors.Is(mustErr(f.b.ReadResource(ctx, "feat", "test://b")), ErrFiltered) != true {
		t.Error("a disabled resource's refusal does not wrap ErrFiltered")
	}
	got, err := f.b.Resources(ctx, "feat")
	if err != nil || len(got.Resources) != 1 || got.Resources[0].URI != "test://a" {
		t.Errorf("listing with test://b disabled = %+v, %v", got.Resources, err)
	}
	f.b.AnyServer = true
	if r, err := f.b.ReadResource(ctx, "off", "test://a"); err != nil || r.Contents[0].Text != "alpha" {
		t.Errorf("a person's read of a registered server that is not enabled: %+v, %v", r, err)
	}
}

func mustErr(_ any, err error) error { return err }

func TestModelText_SpillsPastTheResultCap(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.store.AddKnown("TOKEN", "sekrit-7f3a9")
	long := "sekrit-7f3a9 " + strings.Repeat("x", 70<<10)
	text, err := f.b.ModelText(ctx, &ResourceRead{Server: "feat", URI: "test://long",
		Contents: []ResourceContent{{URI: "test://long", Text: long}}})
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`^\[result of (\d+) bytes spilled to record (\S+) `).FindStringSubmatch(text)
	if m == nil || len(text) > 5000 {
		t.Fatalf("not spilled: %.200q (%d bytes)", text, len(text))
	}
	rec, err := f.store.Record(ctx, m[2])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(rec.Body, "[resource server=feat uri=test://long") || strings.Contains(rec.Body, "sekrit") ||
		fmt.Sprint(len(rec.Body)) != m[1] {
		t.Errorf("record = %.120q… (%d bytes), want the redacted read", rec.Body, len(rec.Body))
	}
}

// A tool's resource links are named so the model can read them with
// mcp_read, an embedded text is shown, an embedded blob described, and a
// URI's escape never reaches the model raw.
func TestCall_ResourceBlocksBecomeText(t *testing.T) {
	f := newFixture(t)
	f.add(t, featuresEntry(t, "feat"), true)
	out, err := f.invoke(context.Background(), "feat", "links", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	wantContains(t, "what the model sees", out.Text,
		"see these\n",
		"[resource_link server=feat uri=test://a name=a mimeType=text/plain; read it with mcp_read]\n",
		`[resource_link server=feat uri=test://\x1b[31mred name=red; read it with mcp_read]`,
		"[resource server=feat uri=test://item/1 mimeType=text/plain (6 bytes)]\nitem 1\n",
		"[resource server=feat uri=test://b mimeType=application/octet-stream: 4 bytes of binary data, not shown]",
	)
	if strings.ContainsRune(out.Text, 0x1b) || strings.Contains(out.Text, "AAECAw==") {
		t.Errorf("a raw escape or the blob's base64 reached the model: %q", out.Text)
	}
}

func TestResourceBlock_EmbeddedTextIsCut(t *testing.T) {
	long := strings.Repeat("é", embeddedMax)
	got := resourceBlock("s", "resource", fmt.Appendf(nil, `{"type":"resource","resource":{"uri":"u://x","text":%q}}`, long))
	if len(got) > embeddedMax+200 || !strings.HasSuffix(got, fmt.Sprintf("of %d bytes; read the whole with mcp_read]", len(long))) {
		t.Errorf("embedded text not cut: %d bytes, ends %q", len(got), got[len(got)-80:])
	}
	if got := resourceBlock("s", "resource", []byte(`{"type":"resource"}`)); got != `{"type":"resource"}` {
		t.Errorf("a block without its resource = %q, want its JSON", got)
	}
}

// The REPL's completion offers an enabled server's URIs that start with
// what is typed, less those the profile withholds, a template's literal
// text up to its variable, and the variable's values the server
// completes; nothing of a server that is not enabled.
func TestCompleteURI_ResourcesAndTemplates(t *testing.T) {
	f := newFixture(t)
	f.add(t, featuresEntry(t, "feat"), true)
	f.add(t, featuresEntry(t, "off"), false)
	ctx := context.Background()
	for _, c := range []struct{ partial, want string }{
		{"", "test://a,test://b,test://item/"},
		{"test://i", "test://item/"},
		{"test://item/", "test://item/1,test://item/2"},
		{"test://item/2", "test://item/2"},
		{"test://z", ""},
	} {
		got, err := f.b.CompleteURI(ctx, "feat", c.partial)
		if err != nil || strings.Join(got, ",") != c.want {
			t.Errorf("CompleteURI(%q) = %v, %v; want %s", c.partial, got, err, c.want)
		}
	}
	if _, err := f.b.SetFilter(ctx, "feat", vault.FilterResource, []string{"test://a", "test://item/1"}, false); err != nil {
		t.Fatal(err)
	}
	if got, err := f.b.CompleteURI(ctx, "feat", "test://"); err != nil || strings.Join(got, ",") != "test://b,test://item/" {
		t.Errorf("with test://a disabled: %v, %v", got, err)
	}
	if got, err := f.b.CompleteURI(ctx, "feat", "test://item/"); err != nil || strings.Join(got, ",") != "test://item/2" {
		t.Errorf("with test://item/1 disabled: %v, %v", got, err)
	}
	if got, err := f.b.CompleteURI(ctx, "off", ""); err == nil {
		t.Errorf("a server not enabled listed %v", got)
	}
}

func TestMatchTemplate(t *testing.T) {
	for _, c := range []struct {
		tmpl, partial string
		want          templateMatch
	}{
		{"file:///{path}", "fi", templateMatch{extend: "file:///"}},
		{"file:///{path}", "file:///RE", templateMatch{variable: "path", value: "RE", before: "file:///", given: map[string]string{}}},
		{"gh://{owner}/{repo}/issues", "gh://tai", templateMatch{variable: "owner", value: "tai", before: "gh://", given: map[string]string{}}},
		{"gh://{owner}/{repo}/issues", "gh://tai/ma", templateMatch{variable: "repo", value: "ma", before: "gh://tai/", given: map[string]string{"owner": "tai"}}},
		{"gh://{owner}/{repo}/issues", "gh://tai/main/is", templateMatch{extend: "gh://tai/main/issues"}},
		{"gh://{owner}/{repo}/issues", "gh://tai/main/issues", templateMatch{}},
		{"gh://{owner}/{repo}/issues", "gh://tai/main/x", templateMatch{}},
		{"db://{+table}", "db://us", templateMatch{variable: "table", value: "us", before: "db://", given: map[string]string{}}},
		{"search://{?q}", "search://", templateMatch{}},
		{"x://{a}{b}", "x://1", templateMatch{}},
		{"other://{id}", "test://", templateMatch{}},
		{"plain://only", "plain://o", templateMatch{extend: "plain://only"}},
		{"broken://{id", "broken://", templateMatch{}},
	} {
		if diff := cmp.Diff(c.want, matchTemplate(c.tmpl, c.partial), cmp.AllowUnexported(templateMatch{})); diff != "" {
			t.Errorf("matchTemplate(%q, %q) (-want +got):\n%s", c.tmpl, c.partial, diff)
		}
	}
}
