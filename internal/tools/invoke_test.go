package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func echoTool() *Tool {
	return &Tool{
		Name: "echo",
		Schema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"},"n":{"type":"integer"}},
			"required":["text"],"additionalProperties":false}`),
		run: func(_ context.Context, call Call) (Result, error) {
			var a struct {
				Text string `json:"text"`
				N    int    `json:"n"`
			}
			if err := json.Unmarshal(call.Args, &a); err != nil {
				return Result{}, err
			}
			if a.N < 0 {
				panic(fmt.Sprintf("negative count %d", a.N)) // a bug in a tool
			}
			return Text(a.Text), nil
		},
	}
}

func TestInvoke(t *testing.T) {
	tests := []struct {
		name, args string
		want       Result
	}{
		{"valid", `{"text":"hi"}`, Text("hi")},
		{"wrong type", `{"text":5}`, Errorf(`echo: argument "text": expected string, got number`)},
		{"missing", `{}`, Errorf(`echo: missing required argument "text"`)},
		{"null args", `null`, Errorf(`echo: missing required argument "text"`)},
		{"not JSON", `{"text":`, Errorf(`echo: arguments are not valid JSON: unexpected EOF`)},
		{"unknown", `{"text":"a","txt":"b"}`, Errorf(`echo: unknown argument "txt"; known: "n", "text"`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Invoke(context.Background(), echoTool(), Call{Args: json.RawMessage(tt.args)}, Via{})
			if err != nil {
				t.Fatal(err)
			}
			if got.Result != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestInvoke_PanicBecomesToolError(t *testing.T) {
	got, err := Invoke(context.Background(), echoTool(), Call{Args: json.RawMessage(`{"text":"x","n":-1}`)}, Via{})
	if err != nil {
		t.Fatal(err)
	}
	if !got.IsError || !strings.Contains(got.Text, "echo failed with an internal error") ||
		!strings.Contains(got.Text, "negative count -1") {
		t.Errorf("got %+v", got)
	}
}

func TestInvoke_RunErrorPassesThrough(t *testing.T) {
	boom := errors.New("transport closed")
	tool := &Tool{Name: "remote", run: func(context.Context, Call) (Result, error) { return Result{}, boom }}
	if _, err := Invoke(context.Background(), tool, Call{}, Via{}); !errors.Is(err, boom) {
		t.Errorf("got %v, want %v", err, boom)
	}
}

func TestInvoke_EmptyArgsForToolWithoutParameters(t *testing.T) {
	var seen string
	tool := &Tool{Name: "now", Schema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		run: func(_ context.Context, call Call) (Result, error) { seen = string(call.Args); return Text("ok"), nil }}
	if res, err := Invoke(context.Background(), tool, Call{}, Via{}); err != nil || res.IsError {
		t.Fatalf("got %+v, %v", res, err)
	}
	if seen != "{}" {
		t.Errorf("Run saw args %q, want {}", seen)
	}
}

func TestInvoke_UnusableSchema(t *testing.T) {
	tool := &Tool{Name: "bad", Schema: json.RawMessage(`"object"`), run: func(context.Context, Call) (Result, error) {
		t.Fatal("ran")
		return Result{}, nil
	}}
	res, _ := Invoke(context.Background(), tool, Call{}, Via{})
	if !res.IsError || !strings.Contains(res.Text, "unusable input schema") {
		t.Errorf("got %+v", res)
	}
}

func TestConsentFor(t *testing.T) {
	call := Call{Args: json.RawMessage(`{ "text": "a\nb" }`), Env: &Env{Dir: "/w"}}
	plain := &Tool{Name: "echo", Server: "srv"}
	if got, want := plain.ConsentFor(call), (Consent{Title: "echo", Detail: `{"text":"a\nb"}`, Server: "srv"}); !reflect.DeepEqual(got, want) {
		t.Errorf("default: got %+v, want %+v", got, want)
	}
	byCall := &Tool{Name: "x", Consent: func(c Call) Consent { return Consent{Title: string(c.Args) + " in " + c.Env.Dir} }}
	if got := byCall.ConsentFor(call).Title; got != `{ "text": "a\nb" } in /w` {
		t.Errorf("Consent: got %q", got)
	}
	long := plain.ConsentFor(Call{Args: json.RawMessage(`"` + strings.Repeat("é", 3000) + `"`)}).Detail
	if !strings.HasSuffix(long, "… (arguments cut)") || !utf8.ValidString(long) {
		t.Errorf("long digest not cut cleanly: %q", long[len(long)-40:])
	}
}

func TestEnv_AbsRel(t *testing.T) {
	e := &Env{Dir: "/work/p"}
	tests := []struct{ in, abs, rel string }{
		{"a/b.go", "/work/p/a/b.go", "a/b.go"},
		{".", "/work/p", "."},
		{"../q/c", "/work/q/c", "/work/q/c"},
		{"/etc/hosts", "/etc/hosts", "/etc/hosts"},
		{"/work/p/./x/../y", "/work/p/y", "y"},
	}
	for _, tt := range tests {
		abs := e.Abs(tt.in)
		if abs != tt.abs || e.Rel(abs) != tt.rel {
			t.Errorf("%s: Abs %s Rel %s, want %s %s", tt.in, abs, e.Rel(abs), tt.abs, tt.rel)
		}
	}
	var none *Env
	if got := none.Rel("/x"); got != "/x" || !strings.HasPrefix(none.Abs("y"), "/") {
		t.Errorf("nil Env: Rel %q Abs %q", got, none.Abs("y"))
	}
}
