package git

import (
	"context"
	"strings"

	"tai/internal/tools"
)

// commitConsent shows the message and what the commit would hold: what is
// staged already and what this call would stage.
func commitConsent(call tools.Call, a commitArgs) tools.Consent {
	subject, _, _ := strings.Cut(strings.TrimSpace(a.Message), "\n")
	c := tools.Consent{Title: "git commit: " + subject}
	var d strings.Builder
	d.WriteString("Message:\n" + indent(a.Message) + "\n")
	d.WriteString("\nThe repository's hooks do not run (pre-commit, commit-msg, post-commit), nor any filter or program its own git configuration names.\n")
	ctx := context.Background()
	section := func(title string, args ...string) {
		out, err := run(ctx, call.Env, readTimeout, "", args...)
		switch {
		case err != nil:
			d.WriteString("\n" + title + " (unknown: " + err.Error() + ")\n")
		case strings.TrimSpace(out) != "":
			d.WriteString("\n" + title + ":\n" + indent(out))
		}
	}
	section("Staged already", "diff", "--cached", "--stat")
	if len(a.Paths) > 0 && checkPaths(a.Paths) == nil {
		section("Stages these paths", withPaths([]string{"status", "--short", "--untracked-files=all"}, a.Paths)...)
	}
	if a.All {
		section("Stages every change to tracked files", "diff", "--stat")
	}
	c.Detail = d.String()
	return c
}

type commitArgs struct {
	Message string   `json:"message" jsonschema:"The commit message: a subject line, optionally a blank line and a body." minLength:"1"`
	Paths   []string `json:"paths,omitempty" jsonschema:"Paths to stage before committing." minLength:"1" maxItems:"200"`
	All     bool     `json:"all,omitempty" jsonschema:"Stage every change to tracked files before committing (like commit -a)."`
}

func indent(s string) string {
	s = strings.TrimRight(s, "\n")
	return "  " + strings.ReplaceAll(s, "\n", "\n  ") + "\n"
}

func runCommit(ctx context.Context, call tools.Call, a commitArgs) (tools.Result, error) {
	err := checkPaths(a.Paths)
	if err != nil {
		return tools.Errorf("%s: %v", CommitName, err), nil
	}
	if strings.TrimSpace(a.Message) == "" {
		return tools.Errorf("%s: the message is empty", CommitName), nil
	}
	if len(a.Paths) > 0 {
		if _, err := run(ctx, call.Env, readTimeout, "", withPaths([]string{"add"}, a.Paths)...); err != nil {
			return tools.Errorf("%s: staging: %v", CommitName, err), nil
		}
	}
	args := []string{"commit", "--file=-"}
	if a.All {
		args = append(args, "--all")
	}
	out, err := run(ctx, call.Env, commitTimeout, a.Message, args...)
	return result(CommitName, out, err, "committed"), nil
}
