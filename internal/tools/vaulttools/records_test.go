package vaulttools

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"tai/internal/tools"
	"tai/internal/tools/tooltest"
	"tai/internal/vault"
)

func putRecord(t *testing.T, env *tools.Env, profile, kind, body string) string {
	t.Helper()
	id, err := env.Store.PutRecord(context.Background(), profile, kind, body)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// envWithToken is tooltest.Env whose default profile holds secretValue as
// the secret TOKEN.
func envWithToken(t *testing.T) *tools.Env {
	t.Helper()
	env := tooltest.Env(t)
	if err := env.Store.SetSecret(context.Background(), vault.DefaultProfile, "TOKEN", secretValue, nil); err != nil {
		t.Fatal(err)
	}
	return env
}

var labelRE = regexp.MustCompile(`^record \w+ \(spill, created [^)]+\): bytes (\d+)–(\d+) of (\d+)(?:; continue with offset (\d+)| \(the end\))\n\n`)

// TestRecordGet_PagesThroughALargeRecord reads a record the way a model
// would, following each page's continue offset, and gets the body back.
func TestRecordGet_PagesThroughALargeRecord(t *testing.T) {
	env := tooltest.Env(t)
	var sb strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&sb, "line %05d: é€ some text\n", i)
	}
	body := sb.String()
	id := putRecord(t, env, vault.DefaultProfile, "spill", body)
	get := tool(t, RecordGetName)

	var got strings.Builder
	offset, pages := 0, 0
	for {
		out := tooltest.MustRun(t, get, env, fmt.Sprintf(`{"id":%q,"offset":%d,"limit":50000}`, id, offset))
		m := labelRE.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("page %d has no label: %.120q", pages, out)
		}
		text := out[len(m[0]):]
		first, _ := strconv.Atoi(m[1])
		last, _ := strconv.Atoi(m[2])
		if first != offset+1 || last-first+1 != len(text) || m[3] != strconv.Itoa(len(body)) {
			t.Fatalf("page %d: label %q does not describe its %d bytes at offset %d", pages, m[0], len(text), offset)
		}
		got.WriteString(text)
		pages++
		if m[4] == "" {
			break
		}
		offset, _ = strconv.Atoi(m[4])
	}
	if got.String() != body {
		t.Errorf("the pages do not add up to the body (%d of %d bytes)", got.Len(), len(body))
	}
	if want := (len(body) + 49999) / 50000; pages < want || pages > want+1 {
		t.Errorf("%d pages for %d bytes", pages, len(body))
	}

	out := tooltest.MustRun(t, get, env, fmt.Sprintf(`{"id":%q,"unit":"lines","offset":19998}`, id))
	if !strings.Contains(out, ": lines 19999–20000 of 20000 (the end)\n\nline 19998: é€") {
		t.Errorf("lines page:\n%s", out)
	}
}

func TestRecordGet_SecretCutByAPageIsStillRedacted(t *testing.T) {
	env := envWithToken(t)
	id := putRecord(t, env, vault.DefaultProfile, "spill", "abcdefghij"+secretValue+" tail")
	get := tool(t, RecordGetName)
	for off := range 30 {
		out := tooltest.MustRun(t, get, env, fmt.Sprintf(`{"id":%q,"offset":%d,"limit":8}`, id, off))
		_, text, _ := strings.Cut(out, "\n\n")
		for i := 0; i+4 <= len(secretValue); i++ {
			if strings.Contains(text, secretValue[i:i+4]) {
				t.Fatalf("offset %d shows part of the secret: %q", off, out)
			}
		}
		if strings.Contains(out, "(the end)") {
			break
		}
	}
	if out := tooltest.MustRun(t, get, env, fmt.Sprintf(`{"id":%q}`, id)); !strings.HasSuffix(out, "abcdefghij[secret:TOKEN] tail") {
		t.Errorf("whole: %q", out)
	}
}

func TestRecordGet_BadInput(t *testing.T) {
	ctx := context.Background()
	env := tooltest.Env(t)
	id := putRecord(t, env, vault.DefaultProfile, "spill", "short body\n")
	if err := env.Store.CreateProfile(ctx, "work"); err != nil {
		t.Fatal(err)
	}
	other := putRecord(t, env, "work", "spill", "work's")
	empty := putRecord(t, env, vault.DefaultProfile, "note", "")
	for _, tt := range []struct{ args, want string }{
		{`{}`, `missing required argument "id"`},
		{`{"id":"rmissing"}`, `no record "rmissing" in profile default; find ids with record_search`},
		{`{"id":"` + other + `"}`, `no record "` + other + `" in profile default`},
		{`{"id":"` + id + `","offset":11}`, "offset 11 is past the end (11 bytes)"},
		{`{"id":"` + id + `","unit":"lines","offset":1}`, "offset 1 is past the end (1 lines)"},
		{`{"id":"` + id + `","offset":-1}`, `argument "offset": must be at least 0`},
		{`{"id":"` + id + `","limit":70000}`, `argument "limit": must be at most 65536`},
		{`{"id":"` + id + `","unit":"words"}`, `argument "unit"`},
	} {
		res := tooltest.Run(t, tool(t, RecordGetName), env, tt.args)
		if !res.IsError || !strings.Contains(res.Text, tt.want) || strings.Contains(res.Text, "\n") {
			t.Errorf("record_get(%s) = %+v, want one-line error containing %q", tt.args, res, tt.want)
		}
	}
	if out := tooltest.MustRun(t, tool(t, RecordGetName), env, `{"id":"`+empty+`"}`); out != "record "+empty+" (note) is empty" {
		t.Errorf("empty: %q", out)
	}
}

func TestRecordSearch(t *testing.T) {
	env := envWithToken(t)
	a := putRecord(t, env, vault.DefaultProfile, "spill", strings.Repeat("padding ", 40)+"the Connection TIMED OUT after 30s\nthen more")
	b := putRecord(t, env, vault.DefaultProfile, "transcript", "subagent said: connection timed out")
	putRecord(t, env, vault.DefaultProfile, "spill", "holds "+secretValue)
	search := tool(t, RecordSearchName)

	out := tooltest.MustRun(t, search, env, `{"query":"timed out"}`)
	if !strings.HasPrefix(out, `2 records contain "timed out", newest first:`) ||
		!strings.Contains(out, a+"\tspill\tcreated ") || !strings.Contains(out, "\tfirst match at offset 335\n  …ding padding") ||
		!strings.Contains(out, "TIMED OUT after 30s then more") || !strings.Contains(out, b+"\ttranscript") {
		t.Errorf("query:\n%s", out)
	}
	if out := tooltest.MustRun(t, search, env, `{"query":"timed out","kind":"transcript"}`); !strings.HasPrefix(out, "1 records contain") || strings.Contains(out, a) {
		t.Errorf("kind filter:\n%s", out)
	}
	if out := tooltest.MustRun(t, search, env, `{"query":"s3cr3t-value"}`); out != `no record of profile default contains "s3cr3t-value"` {
		t.Errorf("a search confirmed a secret's value: %q", out)
	}
	out = tooltest.MustRun(t, search, env, `{"limit":2}`)
	if !strings.HasPrefix(out, "the 2 newest records (stopped at the limit of 2; there may be more):") ||
		!strings.Contains(out, "holds [secret:TOKEN]") || strings.Contains(out, secretValue) {
		t.Errorf("newest:\n%s", out)
	}
	get := tooltest.MustRun(t, tool(t, RecordGetName), env, `{"id":"`+a+`","offset":335,"limit":9}`)
	if !strings.HasSuffix(get, "\n\nTIMED OUT") {
		t.Errorf("the match offset does not lead record_get to the match: %q", get)
	}
	res := tooltest.Run(t, search, env, `{"query":""}`)
	if !res.IsError || !strings.Contains(res.Text, `argument "query": must be at least 1`) {
		t.Errorf("empty query: %+v", res)
	}
}

func TestRecordDelete(t *testing.T) {
	ctx := context.Background()
	env := tooltest.Env(t)
	id := putRecord(t, env, vault.DefaultProfile, "transcript", "a subagent's work")
	del := tool(t, RecordDeleteName)
	args := json.RawMessage(`{"id":"` + id + `"}`)
	if del.IsSafe(tools.Call{Args: args}) {
		t.Fatal("record_delete is safe; it must ask")
	}
	c := del.ConsentFor(tools.Call{Args: args, Env: env})
	if !strings.Contains(c.Detail, "delete record "+id+" (transcript, 17 bytes, created ") {
		t.Errorf("consent = %+v", c)
	}
	if out := tooltest.MustRun(t, del, env, string(args)); out != "deleted record "+id+" (transcript, 17 bytes)" {
		t.Errorf("delete: %q", out)
	}
	if _, err := env.Store.Record(ctx, id); !vault.IsNotFound(err) {
		t.Errorf("still there: %v", err)
	}
	if rows, _ := env.Store.AuditEntries(ctx, vault.AuditQuery{Kind: "record-rm"}); len(rows) != 1 || rows[0].Subject != id {
		t.Errorf("audit = %+v", rows)
	}
	if res := tooltest.Run(t, del, env, string(args)); !res.IsError || !strings.Contains(res.Text, "no record") {
		t.Errorf("second delete: %+v", res)
	}
}

// The schemas state limits the code holds as constants: they agree.
func TestSchemas_AgreeWithTheCode(t *testing.T) {
	var get struct {
		Properties struct {
			Limit struct {
				Maximum     int    `json:"maximum"`
				Description string `json:"description"`
			} `json:"limit"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(tool(t, RecordGetName).Schema, &get); err != nil {
		t.Fatal(err)
	}
	limit := get.Properties.Limit
	if limit.Maximum != pageMax || !strings.Contains(limit.Description, fmt.Sprintf("(default %d)", defaultBytes)) ||
		!strings.Contains(limit.Description, fmt.Sprintf("(default %d)", defaultLines)) {
		t.Errorf("record_get limit: maximum %d, %q; the code pages at most %d, by default %d bytes or %d lines",
			limit.Maximum, limit.Description, pageMax, defaultBytes, defaultLines)
	}
	var set struct {
		Properties struct {
			Name struct {
				Pattern string `json:"pattern"`
			} `json:"name"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(tool(t, SecretSetName).Schema, &set); err != nil {
		t.Fatal(err)
	}
	if got := set.Properties.Name.Pattern; got != vault.SecretRE.String() {
		t.Errorf("secret_set name pattern %q, vault.SecretRE %q", got, vault.SecretRE)
	}
}
