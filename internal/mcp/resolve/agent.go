package resolve

import (
	"context"
	_ "embed"
	"math"
	"strings"

	"tai/internal/mcp/config"
	"tai/internal/mcp/wire"
	"tai/internal/tools"
)

//go:embed brief.md
var briefText string

// agentPass is mcp_resolve_agent: it forks a subagent through the host's
// runner whose only tool reads the repository, and parses its answer
// strictly. It returns the entry, or what the pass saw instead; err is
// set only when ctx ended.
func (r *Resolver) agentPass(ctx context.Context, repo *Repo, dir string, steps []Step) (e config.Entry, saw, transcript string, err error) {
	if r.Subagents == nil {
		return e, "not available here (no subagent runner)", "", nil
	}
	runner, err := r.Subagents(ctx)
	if err != nil {
		return e, "not available: " + wire.Printable(err.Error(), 200), "", nil
	}
	req := tools.ForkRequest{
		Brief:    Brief(repo, dir, steps),
		MaxSteps: r.steps(),
		Timeout:  int(math.Ceil(r.timeout().Seconds())),
		Tools:    tools.NewRegistry(ReadTool(repo, MaxReads)),
	}
	res, err := runner.Fork(ctx, req)
	switch {
	case err != nil && ctx.Err() != nil:
		return e, "", "", ctx.Err()
	case err != nil:
		return e, "the subagent failed: " + wire.Printable(err.Error(), 200), "", nil
	case res.Partial:
		return e, "the subagent stopped without an answer: " + wire.Printable(res.Reason, 200), res.RecordID, nil
	}
	e, err = ParseAnswer(res.Answer)
	if err != nil {
		if _, ok := err.(*AgentError); !ok {
			err = rejected{err, res.Answer}
		}
		return e, err.Error(), res.RecordID, nil
	}
	return e, "answered " + describe(e), res.RecordID, nil
}

// rejected is an answer that broke the format, quoted briefly.
type rejected struct {
	why    error
	answer string
}

func (r rejected) Error() string {
	return "its answer was refused: " + r.why.Error() + "; it began " + wire.Printable(strings.TrimSpace(r.answer), 80)
}

// Brief is the agent pass's brief for repo, naming the linked folder and
// what the deterministic pass saw.
func Brief(repo *Repo, dir string, steps []Step) string {
	where, folder := "", ""
	if repo.Ref != "" {
		where = " at ref " + repo.Ref
	}
	if dir != "" {
		where += ", folder " + dir
		folder = " in the folder " + dir + " first, then at the root"
	}
	seen := make([]string, len(steps))
	for i, s := range steps {
		seen[i] = s.String()
	}
	if len(seen) == 0 {
		seen = []string{"nothing"}
	}
	return strings.NewReplacer("{{repo}}", repo.Owner+"/"+repo.Name, "{{where}}", where, "{{folder}}", folder,
		"{{files}}", "mcp.json, .mcp.json, server.json, package.json, pyproject.toml, Dockerfile",
		"{{seen}}", strings.Join(seen, "; ")).Replace(strings.TrimSpace(briefText))
}

func describe(e config.Entry) string {
	if e.Transport == config.HTTP {
		return "url " + wire.Printable(e.URL, 100)
	}
	return wire.Printable(argvOf(e), 100)
}
