// Package gitenv is the one place that says what a git process runs when
// tai starts it (the git tools) or vouches for it (a shell line the
// read-only rules accept): git's own code, and no program the repository
// names. A repository's configuration ($GIT_DIR/config, config.worktree
// and what they include) and its attributes are written by whoever made
// the repository, who may not be the person running tai: a directory
// unpacked from an archive, or a bare repository checked in to a clone.
//
// Protections come in three kinds, all passed through the environment so
// that they also reach the git processes git itself starts (submodules,
// hooks' children):
//
//   - fixed settings, whatever any configuration says (see [fixed]);
//   - environment variables that outrank configuration (see [setEnv]);
//   - per-repository settings: every key in [programKeys] that the
//     repository's own configuration sets is set again, to the value the
//     person's configuration (system, global, command line) gives it, or
//     else to a value that runs nothing of the repository's.
//
// Keys that name programs and are left alone, with the reason:
//
//   - core.pager, pager.<cmd>: GIT_PAGER outranks both, and git starts a
//     pager only on a terminal, which tai never gives it.
//   - core.editor, sequence.editor: GIT_EDITOR and GIT_SEQUENCE_EDITOR
//     outrank them.
//   - core.sshCommand, core.gitProxy, core.askPass, remote.<name>.uploadpack
//     and receivepack, credential helpers, http.* and
//     core.alternateRefsCommand: used only to reach another repository
//     (fetch, push, and the lazy fetch of a partial clone that log, show
//     or diff can trigger), and GIT_ALLOW_PROTOCOL refuses every transport.
//   - uploadpack.packObjectsHook: read only from the person's own
//     configuration, and only by upload-pack, which serves fetches.
//   - merge.<driver>.driver, interactive.diffFilter, sendemail.*: used by
//     merges, `add -p` and send-email, none of which tai runs or vouches for.
//   - alias.*: an alias cannot shadow a built-in command, and tai runs or
//     vouches for built-in commands only.
//
// Not covered: a submodule's own configuration (git status and diff look
// inside submodules with a child git, which gets the fixed protections but
// not the per-repository ones computed here); the git tools therefore ask
// git not to look inside submodules.
package gitenv

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"tai/internal/lazyre"
)

// A setting is one configuration key and the value tai gives it.
type setting struct{ key, value string }

// fixed are set for every protected git, above any configuration.
var fixed = []setting{
	// status, diff, ls-files and anything that refreshes the index run the
	// named program to learn what changed (or start git's own daemon,
	// which outlives tai).
	{"core.fsmonitor", "false"},
	// No hook runs: reads reach post-index-change and
	// reference-transaction, a commit pre-commit, commit-msg and
	// post-commit, a switch post-checkout.
	{"core.hooksPath", "/dev/null"},
	// A repository found by walking up from the working directory must
	// have a work tree: a bare repository checked in to a clone (HEAD,
	// config with core.worktree and core.fsmonitor) is not entered.
	{"safe.bareRepository", "explicit"},
	// The empty value empties the list: no credential helper runs.
	{"credential.helper", ""},
	// A commit would otherwise start git's maintenance, detached.
	{"maintenance.auto", "false"},
	{"gc.auto", "0"},
}

// setEnv are set in the environment of every protected git.
var setEnv = []string{
	"GIT_PAGER=cat", // outranks core.pager and pager.<cmd>
	// An empty allowlist: every transport (ssh, file, http, remote
	// helpers) is refused, so no fetch runs a transport program.
	"GIT_ALLOW_PROTOCOL=",
	"GIT_TERMINAL_PROMPT=0",
	"GIT_EDITOR=true",
	"GIT_SEQUENCE_EDITOR=true",
	"GIT_OPTIONAL_LOCKS=0", // status does not rewrite the index
}

// dropEnv are removed from the environment of every protected git:
// GIT_EXTERNAL_DIFF names a diff program, and GIT_CONFIG_PARAMETERS (set by
// a git that runs tai, from a hook for example) is read after
// GIT_CONFIG_COUNT, so it would outrank the settings given here.
var dropEnv = []string{"GIT_EXTERNAL_DIFF", "GIT_CONFIG_PARAMETERS"}

// programKeys are the keys whose value is a program that a read (status,
// diff, log, show, blame, ls-files, cat-file, grep) or a commit, switch
// or branch can run, with the value that runs nothing of the repository's.
// Keys are matched as `git config --list` prints them: section and key in
// lower case, the subsection (a driver's name) as written.
var programKeys = []struct {
	match   *lazyre.Regexp
	neutral string
}{
	// Filters run on the work tree's files: clean when status, diff or add
	// compare or store a file, smudge when a checkout or switch writes one.
	// An empty command is no filter (see [requiredOff]).
	{lazyre.New(`^filter\..+\.(clean|smudge|process)$`), ""},
	// Textconv runs on both sides of a diff, log -p, show and blame; cat
	// converts nothing.
	{lazyre.New(`^diff\..+\.textconv$`), "cat"},
	// External diff drivers: git diff fails instead, saying how to diff
	// without one (the git tools pass --no-ext-diff and never use them).
	// Git runs the value with sh, its arguments appended; the # drops them.
	{lazyre.New(`^diff\..+\.command$`), noExtDiff},
	{lazyre.New(`^diff\.external$`), noExtDiff},
	// Signature checks (log.showSignature, --show-signature) and signing
	// (commit.gpgSign) run these; the neutral values are git's defaults.
	{lazyre.New(`^gpg\.(openpgp\.)?program$`), "gpg"},
	{lazyre.New(`^gpg\.x509\.program$`), "gpgsm"},
	{lazyre.New(`^gpg\.ssh\.program$`), "ssh-keygen"},
	{lazyre.New(`^gpg\.ssh\.defaultkeycommand$`), ""},
}

const noExtDiff = `echo "tai: the repository's external diff driver does not run; use git diff --no-ext-diff" >&2; exit 1 #`

// requiredOff matches the filter keys whose neutralising also needs
// filter.<driver>.required=false: a required filter that does nothing
// makes git stop.
var requiredOff = lazyre.New(`^filter\.(.+)\.(clean|smudge|process)$`)

// trustedScopes are the configuration scopes the person writes.
var trustedScopes = map[string]bool{"system": true, "global": true, "command": true}

// Minimum git: GIT_CONFIG_COUNT is read from 2.31 on. safe.bareRepository
// is honoured from 2.38 on; an older git enters a bare repository found
// by walking up from the working directory.
const minMajor, minMinor = 2, 31

// listTimeout bounds the configuration listing and the version check.
const listTimeout = 10 * time.Second

// Env returns environ made safe for a git run in dir: the protections of
// this package added, the repository's program settings in dir
// neutralised. It runs git twice (its version, once per process, and its
// configuration list in dir) under the same protections. An error says
// why git cannot be run safely; it wraps [exec.ErrNotFound] when git is
// not installed.
func Env(ctx context.Context, dir string, environ []string) ([]string, error) {
	if err := checkVersion(); err != nil {
		return nil, err
	}
	base := withSettings(environ, fixed)
	list, err := listConfig(ctx, dir, base)
	if err != nil {
		return nil, err
	}
	return withSettings(environ, append(append([]setting{}, fixed...), overrides(list)...)), nil
}

// entry is one line of `git config --show-scope --list`.
type entry struct{ scope, key, value string }

// listConfig lists the configuration git sees in dir, in the order git
// reads it (system, global, local, worktree, command).
func listConfig(ctx context.Context, dir string, environ []string) ([]entry, error) {
	ctx, cancel := context.WithTimeout(ctx, listTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "config", "--null", "--show-scope", "--list")
	cmd.Dir, cmd.Env = dir, environ
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(errOut.String()), "fatal: "))
		if errors.Is(err, exec.ErrNotFound) || msg == "" {
			return nil, fmt.Errorf("reading git's configuration: %w", err)
		}
		return nil, errors.New(msg)
	}
	// Records are "scope\0key\nvalue\0"; a key given without a value has no
	// newline.
	fields := strings.Split(strings.TrimSuffix(out.String(), "\x00"), "\x00")
	var list []entry
	for i := 0; i+1 < len(fields); i += 2 {
		key, value, _ := strings.Cut(fields[i+1], "\n")
		list = append(list, entry{scope: fields[i], key: key, value: value})
	}
	return list, nil
}

// overrides returns a setting for every program key the repository's own
// configuration sets: the person's value when they set one, else neutral.
func overrides(list []entry) []setting {
	trusted := map[string]string{}
	for _, e := range list {
		if trustedScopes[e.scope] {
			trusted[e.key] = e.value
		}
	}
	var out []setting
	seen := map[string]bool{}
	for _, e := range list {
		if trustedScopes[e.scope] || seen[e.key] {
			continue
		}
		for _, p := range programKeys {
			if !p.match.MatchString(e.key) {
				continue
			}
			seen[e.key] = true
			if v, ok := trusted[e.key]; ok {
				out = append(out, setting{e.key, v})
				break
			}
			out = append(out, setting{e.key, p.neutral})
			if m := requiredOff.FindStringSubmatch(e.key); m != nil {
				out = append(out, setting{"filter." + m[1] + ".required", "false"})
			}
			break
		}
	}
	return out
}

// withSettings returns environ with [dropEnv] removed, [setEnv] set and
// settings appended to the GIT_CONFIG_COUNT entries environ already has
// (later entries win, so these outrank them).
func withSettings(environ []string, settings []setting) []string {
	count, _ := strconv.Atoi(lookup(environ, "GIT_CONFIG_COUNT"))
	if count < 0 {
		count = 0
	}
	out := make([]string, 0, len(environ)+len(setEnv)+2*len(settings)+1)
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		if !dropped(k) {
			out = append(out, kv)
		}
	}
	out = append(out, setEnv...)
	for i, s := range settings {
		n := strconv.Itoa(count + i)
		out = append(out, "GIT_CONFIG_KEY_"+n+"="+s.key, "GIT_CONFIG_VALUE_"+n+"="+s.value)
	}
	return append(out, "GIT_CONFIG_COUNT="+strconv.Itoa(count+len(settings)))
}

// dropped reports whether withSettings removes the variable k: the ones it
// sets or drops, and the GIT_CONFIG_KEY_n/VALUE_n it renumbers over.
func dropped(k string) bool {
	if k == "GIT_CONFIG_COUNT" {
		return true
	}
	for _, d := range dropEnv {
		if k == d {
			return true
		}
	}
	for _, kv := range setEnv {
		if name, _, _ := strings.Cut(kv, "="); k == name {
			return true
		}
	}
	return false
}

func lookup(environ []string, name string) string {
	v := ""
	for _, kv := range environ {
		if k, val, ok := strings.Cut(kv, "="); ok && k == name {
			v = val
		}
	}
	return v
}

var version struct {
	once sync.Once
	err  error
}

// checkVersion refuses a git older than minMajor.minMinor, once per
// process: an older git would ignore the protections silently.
func checkVersion() error {
	version.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), listTimeout)
		defer cancel()
		out, err := exec.CommandContext(ctx, "git", "version").Output()
		if err != nil {
			version.err = fmt.Errorf("running git version: %w", err)
			return
		}
		version.err = parseVersion(string(out))
	})
	return version.err
}

// parseVersion checks the output of `git version` ("git version 2.39.5",
// "git version 2.39.5 (Apple Git-143)").
func parseVersion(out string) error {
	fields := strings.Fields(out)
	if len(fields) < 3 {
		return fmt.Errorf("cannot read git's version from %q", strings.TrimSpace(out))
	}
	parts := strings.SplitN(fields[2], ".", 3)
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := 0, error(nil)
	if len(parts) > 1 {
		minor, err2 = strconv.Atoi(parts[1])
	}
	switch {
	case err1 != nil || err2 != nil:
		return fmt.Errorf("cannot read git's version from %q", strings.TrimSpace(out))
	case major < minMajor || major == minMajor && minor < minMinor:
		return fmt.Errorf("git %s is too old: tai needs git %d.%d or newer to run git without the repository's programs; upgrade git", fields[2], minMajor, minMinor)
	}
	return nil
}
