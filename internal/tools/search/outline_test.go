package search

import (
	"testing"

	"tai/internal/tools"
)

const goFile = `package demo

import "fmt"

// Answer is documented.
const Answer = 42

const (
	a, b = 1, 2
)

var registry map[string]int

type Server struct {
	name string
}

type Handler interface{ Serve() }

type List[T any] []T

type ID = string

func New(name string) *Server { return &Server{name: name} }

func (s *Server) Serve(
	ctx context.Context,
	n int,
) (int, error) {
	fmt.Println(s.name)
	return 0, nil
}
`

func TestOutline(t *testing.T) {
	env := &tools.Env{Dir: tree(t, map[string]string{
		"demo.go":   goFile,
		"broken.go": "package x\n\nfunc Good() {}\n\nfunc Bad( {\n",
		"app.py":    "import os\n\nclass Store:\n    def get(self, k):\n        pass\n\nasync def main():\n    pass\n",
		"ui.ts":     "export interface Props { a: string }\nexport default class App {}\nconst add = (a: number, b: number) => a + b\nexport async function load() {\n}\ntype Id = string\nlet x = 1\n",
		"lib.rs":    "pub struct Point { x: i32 }\nimpl Point {\n    pub fn new() -> Self { Point { x: 0 } }\n}\npub(crate) async fn run() {}\n",
		"run.sh":    "#!/bin/sh\nbuild() {\n  go build\n}\nfunction test_all {\n}\n",
		"empty.py":  "x = 1\n",
		"data.csv":  "a,b\n",
	})}
	tests := []struct{ path, want string }{
		{"demo.go", "    6  const Answer\n    9  const a\n    9  const b\n   12  var registry map[string]int\n" +
			"   14  type Server struct\n   18  type Handler interface\n   20  type List[T any] []T\n   22  type ID = string\n" +
			"   24  func New(name string) *Server\n   26  func (s *Server) Serve(ctx context.Context, n int) (int, error)\n"},
		{"app.py", "    3  class Store:\n    4      def get(self, k):\n    7  async def main():\n"},
		{"ui.ts", "    1  export interface Props { a: string }\n    2  export default class App {}\n" +
			"    3  const add = (a: number, b: number) => a + b\n    4  export async function load()\n    6  type Id = string\n"},
		{"lib.rs", "    1  pub struct Point { x: i32 }\n    2  impl Point\n    3      pub fn new() -> Self { Point { x: 0 } }\n    5  pub(crate) async fn run() {}\n"},
		{"run.sh", "    2  build()\n    5  function test_all\n"},
		{"empty.py", "no declarations found in empty.py"},
	}
	for _, tt := range tests {
		if got := ok(t, env, Outline, `{"path":"`+tt.path+`"}`); got != tt.want {
			t.Errorf("%s\n got: %q\nwant: %q", tt.path, got, tt.want)
		}
	}
	got := ok(t, env, Outline, `{"path":"broken.go"}`)
	want := "    3  func Good()\n    5  func Bad()\n[the file has syntax errors, first: 5:11: expected ')', found '{']\n"
	if got != want {
		t.Errorf("broken.go\n got: %q\nwant: %q", got, want)
	}
	for args, want := range map[string]string{
		`{"path":"data.csv"}`: `outline does not know ".csv" files; it reads Go, Python, JavaScript, TypeScript, Rust, Ruby, Java, Kotlin, C# and shell: use grep for others`,
		`{"path":"nope.go"}`:  "nope.go does not exist",
		`{"path":"."}`:        ". is a directory; outline reads one source file",
	} {
		if got := fails(t, env, Outline, args); got != want {
			t.Errorf("%s\n got: %q\nwant: %q", args, got, want)
		}
	}
}
