package sandbox

import (
	"strings"
	"testing"
)

// A failed command's output, as the usual programs word a refusal, is
// read into one line saying what was refused and how to allow it.
func TestExplain(t *testing.T) {
	p := Workspace(WorkspaceWrite, []string{"/w"}, "/home/u", "/home/u/.local/share/tai", "/tmp")
	cases := []struct{ out, want string }{
		{"cat: /home/u/.ssh/id_rsa: Permission denied\n", "reading /home/u/.ssh/id_rsa (a protected path"},
		{"sh: 1: cannot create /etc/hosts: Permission denied\n", "writing /etc/hosts (outside the workspace: add its directory with --add-dir"},
		{"touch: cannot touch '/opt/x': Permission denied\n", "writing /opt/x (outside the workspace"},
		{"Error: EACCES: permission denied, open '/usr/lib/node_modules/x'\n", "writing /usr/lib/node_modules/x (outside the workspace"},
		{"sh: 1: cannot create .git/hooks/pre-commit: Read-only file system\n", "writing /w/.git/hooks/pre-commit (.git/hooks and .git/config stay read-only"},
		{"curl: (6) Could not resolve host: example.com\n", "the network (it is off for sandboxed commands"},
		{"fatal: unable to access 'https://github.com/x/y/': Could not resolve host: github.com\n", "the network"},
		{"dial tcp 10.0.0.1:443: connect: permission denied\n", "the network"},
		{"cat: /home/u/.ssh/id_rsa: No such file or directory\n", "reading /home/u/.ssh/id_rsa (a protected path"},
		{"cat: /w/missing.txt: No such file or directory\n", ""},
		{"curl: (7) Failed to connect to 127.0.0.1 port 8080 after 0 ms: Couldn't connect to server\n", "the network"},
		{"FAIL: 2 tests failed\n", ""},
		{"permission denied (publickey)\n", ""},
	}
	for _, tc := range cases {
		got := Explain(p, "/w", tc.out)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%q:\n got %q\nwant %q", tc.out, got, tc.want)
		}
	}
	ro := Workspace(ReadOnly, []string{"/w"}, "/home/u", "", "/tmp/x")
	if got := Explain(ro, "/w", "sh: 1: cannot create out.txt: Permission denied\n"); !strings.Contains(got, "writing /w/out.txt (the sandbox is read-only") {
		t.Errorf("read-only: %q", got)
	}
}

// A server reads the package managers' configuration, which npx needs;
// a command does not; both never read keys.
func TestServerProtected(t *testing.T) {
	cmd, srv := Protected("/home/u", "/t"), ServerProtected("/home/u", "/t")
	for _, p := range []string{"/home/u/.npmrc", "/home/u/.yarnrc"} {
		if !contains(cmd, p) || contains(srv, p) {
			t.Errorf("%s: commands %v, servers %v", p, contains(cmd, p), contains(srv, p))
		}
	}
	for _, p := range []string{"/home/u/.ssh", "/t", "/home/u/.pypirc"} {
		if !contains(srv, p) {
			t.Errorf("servers may read %s", p)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
