package resolve

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"tai/internal/mcp/config"
	"tai/internal/mcp/wire"
	"tai/internal/tools"
)

// Passes of a resolution.
const (
	PassDeterministic = "deterministic"
	PassAgent         = "agent"
)

// Resolver turns GitHub repository links into server entries.
type Resolver struct {
	GitHub *GitHub
	// Subagents returns the runner the agent pass forks through: the
	// host's default runner, on the same profile. It is called only when
	// the deterministic pass finds nothing; nil, or an error from it,
	// leaves the agent pass out, and a failure says why.
	Subagents func(ctx context.Context) (tools.Subagents, error)
	// Steps and Timeout bound the agent pass; 0 means MCP_RESOLVER_STEPS
	// and MCP_RESOLVER_TIMEOUT. The runner takes whole seconds.
	Steps   int
	Timeout time.Duration
}

// Resolution is what [Resolver.Find] found, and how.
type Resolution struct {
	Entries []config.Entry
	Pass    string // PassDeterministic or PassAgent; "" when nothing was found
	// Static is what each step of the deterministic pass saw.
	Static []Step
	// Agent is what the agent pass saw; "" when it did not run.
	Agent string
	// Transcript is the vault record of the subagent's transcript.
	Transcript string
}

// Resolve is Find for callers that want the entries only; it has the
// shape of bridge.Resolver.
func (r *Resolver) Resolve(ctx context.Context, ref *config.GitHubRef) ([]config.Entry, error) {
	res, err := r.Find(ctx, ref)
	return res.Entries, err
}

// Find resolves ref: the deterministic pass, then, when it finds nothing,
// the agent pass. Entries carry Source github:OWNER/REPO and a note saying
// where they were found. When neither pass finds an entry the error is a
// [*Failure].
func (r *Resolver) Find(ctx context.Context, ref *config.GitHubRef) (Resolution, error) {
	repo := r.GitHub.Repo(ref.Owner, ref.Repo, ref.Ref)
	dir, err := CleanPath(ref.Path)
	if err != nil {
		dir = ""
	}
	entries, steps, err := static(ctx, repo, dir)
	res := Resolution{Static: steps}
	fail := &Failure{Repo: ref.Owner + "/" + ref.Repo, Static: steps}
	switch {
	case ctx.Err() != nil:
		return res, ctx.Err()
	case err != nil:
		fail.Err, fail.Agent = err, "not run: it reads through the same API"
		return res, fail
	case len(entries) > 0:
		from := steps[len(steps)-1].Path
		res.Entries, res.Pass = stamp(entries, ref, "found in "+shownPath(from)+" of github.com/"+fail.Repo), PassDeterministic
		return res, nil
	}
	e, saw, transcript, err := r.agentPass(ctx, repo, dir, steps)
	res.Agent, res.Transcript = saw, transcript
	if err != nil {
		return res, err
	}
	if e.Name == "" {
		fail.Agent, fail.Transcript = saw, transcript
		return res, fail
	}
	note := "found by the resolver's subagent in github.com/" + fail.Repo + ", whose files are untrusted: check what will run"
	res.Entries, res.Pass = stamp([]config.Entry{e}, ref, note), PassAgent
	return res, nil
}

func stamp(entries []config.Entry, ref *config.GitHubRef, note string) []config.Entry {
	out := make([]config.Entry, len(entries))
	for i, e := range entries {
		e.Source = config.GitHubSource(ref.Owner, ref.Repo)
		e.Notes = append(append([]string(nil), e.Notes...), note)
		out[i] = e
	}
	return out
}

func (r *Resolver) steps() int {
	if r.Steps > 0 {
		return r.Steps
	}
	return wire.ResolverSteps
}

func (r *Resolver) timeout() time.Duration {
	if r.Timeout > 0 {
		return r.Timeout
	}
	return wire.ResolverTimeout
}

// Failure is a resolution that found no entry. Its message names both
// passes and what each saw, on one line.
type Failure struct {
	Repo   string // OWNER/REPO
	Static []Step
	Agent  string
	// Transcript is the vault record of the subagent's transcript, if any.
	Transcript string
	// Err is what stopped the deterministic pass from reading the
	// repository at all (ErrNotFound, a *RateLimitError), or nil.
	Err error
}

func (f *Failure) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "github.com/%s: no MCP server entry found. Deterministic pass: ", f.Repo)
	var saw []string
	for _, s := range f.Static {
		saw = append(saw, s.String())
	}
	if f.Err != nil {
		saw = append(saw, wire.Printable(f.Err.Error(), 300))
	}
	if errors.Is(f.Err, ErrNotFound) { // only the root's listing ends the pass with it
		saw[len(saw)-1] += " (a private repository needs a GITHUB_TOKEN that can read it)"
	}
	if len(saw) == 0 {
		saw = []string{"nothing"}
	}
	b.WriteString(strings.Join(saw, "; "))
	b.WriteString(". Agent pass: " + f.Agent)
	if f.Transcript != "" {
		b.WriteString(" (transcript: tai record show " + f.Transcript + ")")
	}
	b.WriteString(". Paste the server's config instead")
	return b.String()
}

// Unwrap returns what stopped the deterministic pass, if anything.
func (f *Failure) Unwrap() error { return f.Err }
