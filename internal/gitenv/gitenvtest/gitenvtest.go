// Package gitenvtest builds hostile git repositories for tests: every
// program a repository's own configuration can name records in a marker
// file that it ran.
package gitenvtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Roles are the programs a [Hostile] repository names, by what git would
// run them as.
var Roles = []string{"fsmonitor", "clean", "smudge", "textconv", "extdiff", "gpg", "hook"}

// Repo is a hostile repository.
type Repo struct {
	// Dir is the work tree: a.txt is committed as "one\n" and modified to
	// "two\n" (same size, so git must run the clean filter to compare).
	Dir    string
	marker string
}

// Ran returns the roles that ran, one a line, or "" when none did.
func (r Repo) Ran(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(r.marker)
	if os.IsNotExist(err) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Forget clears the record of what ran, after a setup that ran git
// unprotected in r.
func (r Repo) Forget(t *testing.T) {
	t.Helper()
	if err := os.Remove(r.marker); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
}

// Program returns the path of the program r names for role (one of
// [Roles]); it records in r's marker when it runs.
func (r Repo) Program(role string) string {
	return filepath.Join(filepath.Dir(r.marker), role)
}

// Hostile makes a repository whose .git/config sets core.fsmonitor, a
// clean and smudge filter (required), a textconv and an external diff
// driver (both through .gitattributes), diff.external, gpg.program with
// log.showSignature on a signed HEAD, and whose .git/hooks hold every hook
// a read, a commit or a switch can reach. Git's configuration must already
// be isolated from the machine's, with a user name and email (see
// [Isolate]).
func Hostile(t *testing.T) Repo {
	t.Helper()
	dir := t.TempDir()
	bin := t.TempDir()
	r := Repo{Dir: dir, marker: filepath.Join(bin, "ran")}
	Git(t, dir, "init", "-q")
	Write(t, dir, ".gitattributes", "*.txt filter=x diff=d\n")
	Write(t, dir, "a.txt", "one\n")
	Git(t, dir, "add", ".")
	Git(t, dir, "commit", "-qm", "first")
	sign(t, dir)

	prog := func(role, body string) string {
		p := filepath.Join(bin, role)
		Write(t, bin, role, "#!/bin/sh\necho "+role+" >> '"+r.marker+"'\n"+body+"\n")
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, kv := range [][2]string{
		{"core.fsmonitor", prog("fsmonitor", "exit 1")},
		{"filter.x.clean", prog("clean", "exec cat")},
		{"filter.x.smudge", prog("smudge", "exec cat")},
		{"filter.x.required", "true"},
		{"diff.d.textconv", prog("textconv", `exec cat "$1"`)},
		{"diff.d.command", prog("extdiff", "exit 0")},
		{"diff.external", filepath.Join(bin, "extdiff")},
		{"gpg.program", prog("gpg", "exit 1")},
		{"log.showSignature", "true"},
	} {
		Git(t, dir, "config", kv[0], kv[1])
	}
	hook := prog("hook", "exit 0")
	for _, h := range []string{"pre-commit", "commit-msg", "prepare-commit-msg", "post-commit", "post-checkout", "reference-transaction", "post-index-change"} {
		if err := os.Symlink(hook, filepath.Join(dir, ".git", "hooks", h)); err != nil {
			t.Fatal(err)
		}
	}
	Write(t, dir, "a.txt", "two\n")
	return r
}

// sign gives HEAD a gpgsig header, so that showing it with
// log.showSignature runs gpg.program.
func sign(t *testing.T, dir string) {
	t.Helper()
	body := Git(t, dir, "cat-file", "commit", "HEAD")
	head, msg, _ := strings.Cut(body, "\n\n")
	signed := head + "\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\n" + msg
	cmd := exec.Command("git", "hash-object", "-t", "commit", "-w", "--stdin")
	cmd.Dir, cmd.Stdin = dir, strings.NewReader(signed)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("hash-object: %v", err)
	}
	Git(t, dir, "update-ref", "HEAD", strings.TrimSpace(string(out)))
}

// Bare checks in a bare repository at dir/evil, the way a clone can hold
// one: its config says it is not bare, names the directory above as its
// work tree and sets core.fsmonitor to a program that records in r's
// marker. It returns the bare repository's directory.
func (r Repo) Bare(t *testing.T) string {
	t.Helper()
	evil := filepath.Join(r.Dir, "evil")
	Git(t, r.Dir, "init", "-q", "--bare", "evil")
	Git(t, evil, "config", "core.bare", "false")
	Git(t, evil, "config", "core.worktree", "..")
	Git(t, evil, "config", "core.fsmonitor", r.Program("fsmonitor"))
	return evil
}

// Isolate keeps git in the test from the machine's configuration: an
// empty system configuration, and a global one holding only a user.
func Isolate(t *testing.T) {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "gitconfig")
	Write(t, filepath.Dir(cfg), "gitconfig", "[user]\n\tname = Tai Test\n\temail = tai@example.com\n[init]\n\tdefaultBranch = main\n")
	t.Setenv("GIT_CONFIG_GLOBAL", cfg)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_COUNT", "")
	t.Setenv("GIT_CONFIG_PARAMETERS", "")
}

// Git runs git in dir with the test's environment, outside tai's
// protections, and returns its output; a failure ends the test.
func Git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// Write writes body to the file name in dir; a failure ends the test.
func Write(t *testing.T, dir, name, body string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
