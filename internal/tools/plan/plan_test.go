package plan

import (
	"strings"
	"testing"

	"tai/internal/tools/tooltest"
)

func TestTodo_WriteThenRead(t *testing.T) {
	env := tooltest.Env(t)
	read, write := tooltest.Find(t, Tools(), ReadName), tooltest.Find(t, Tools(), WriteName)
	if got := tooltest.MustRun(t, read, env, `{}`); got != "the todo list is empty" {
		t.Errorf("fresh read: %q", got)
	}
	want := "3 todos: 1 completed, 1 in progress, 1 pending\n1. [x] read the spec\n2. [>] write the code\n3. [ ] run the tests\n"
	got := tooltest.MustRun(t, write, env, `{"todos":[{"content":"read the spec","status":"completed"},
		{"content":" write the code ","status":"in_progress"},{"content":"run the tests","status":"pending"}]}`)
	if got != want {
		t.Errorf("write returned:\n%s\nwant:\n%s", got, want)
	}
	if got := tooltest.MustRun(t, read, env, ``); got != want {
		t.Errorf("read returned:\n%s\nwant:\n%s", got, want)
	}

	other := *env
	other.Session = "s2"
	if got := tooltest.MustRun(t, read, &other, `{}`); got != "the todo list is empty" {
		t.Errorf("another session sees the list: %q", got)
	}

	if got := tooltest.MustRun(t, write, env, `{"todos":[]}`); got != "the todo list is empty" {
		t.Errorf("clearing: %q", got)
	}
	if got := tooltest.MustRun(t, read, env, `{}`); got != "the todo list is empty" {
		t.Errorf("after clearing: %q", got)
	}
}

func TestTodo_BadInputSavesNothing(t *testing.T) {
	env := tooltest.Env(t)
	read, write := tooltest.Find(t, Tools(), ReadName), tooltest.Find(t, Tools(), WriteName)
	tooltest.MustRun(t, write, env, `{"todos":[{"content":"keep me","status":"pending"}]}`)
	for _, tt := range []struct{ args, want string }{
		{`{}`, `missing required argument "todos"`},
		{`{"todos":[{"content":"a","status":"done"}]}`, `todos[0].status`},
		{`{"todos":[{"content":"a"}]}`, `status`},
		{`{"todos":[{"content":"a","status":"pending","id":1}]}`, `unknown field "id"`},
		{`{"todos":[{"content":"a","status":"in_progress"},{"content":"b","status":"in_progress"}]}`,
			"items 1 and 2 are both in_progress; at most one item may be; nothing was saved"},
		{`{"todos":[{"content":"a","status":"pending"},{"content":"a ","status":"completed"}]}`, `item 2 repeats item 1 ("a")`},
		{`{"todos":[{"content":"  ","status":"pending"}]}`, "item 1 has blank content"},
		{`{"todos":[` + strings.Repeat(`{"content":"x","status":"pending"},`, 50) + `{"content":"y","status":"pending"}]}`, "at most 50 items"},
	} {
		res := tooltest.Run(t, write, env, tt.args)
		if !res.IsError || !strings.Contains(res.Text, tt.want) || strings.Contains(res.Text, "\n") {
			t.Errorf("todo_write(%.60s) = %+v, want one-line error containing %q", tt.args, res, tt.want)
		}
	}
	if got := tooltest.MustRun(t, read, env, `{}`); !strings.Contains(got, "1. [ ] keep me") {
		t.Errorf("a rejected write changed the list:\n%s", got)
	}
}
