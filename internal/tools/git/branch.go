package git

import (
	"context"
	"fmt"
	"strings"

	"tai/internal/tools"
)

// change describes what a create or switch call does, in words.
func (a branchArgs) change() string {
	from := ""
	if a.Start != "" {
		from = " at " + a.Start
	}
	switch {
	case a.Action == "create":
		return "create branch " + a.Name + from
	case a.Create:
		return "create branch " + a.Name + from + " and switch to it"
	}
	return "switch to branch " + a.Name
}

type branchArgs struct {
	Action string `json:"action,omitempty" jsonschema:"Default list." enum:"list,create,switch"`
	Name   string `json:"name,omitempty" jsonschema:"Branch to create or switch to." pattern:"^[^-\\s]\\S*$"`
	Start  string `json:"start,omitempty" jsonschema:"Where a new branch starts. Default HEAD." pattern:"^[^-\\s]\\S*$"`
	Create bool   `json:"create,omitempty" jsonschema:"With switch: create the branch first."`
	All    bool   `json:"all,omitempty" jsonschema:"With list: include remote-tracking branches."`
}

func branchConsent(call tools.Call, a branchArgs) tools.Consent {
	c := tools.Consent{Title: "git_branch: " + a.change()}
	if out, err := run(context.Background(), call.Env, readTimeout, "", "status", "--short", "--branch"); err == nil {
		c.Detail = "Now:\n" + indent(out)
	}
	return c
}

func runBranch(ctx context.Context, call tools.Call, a branchArgs) (tools.Result, error) {
	err := a.check(ctx, call.Env)
	if err != nil {
		return tools.Errorf("%s: %v", BranchName, err), nil
	}
	var args []string
	switch a.Action {
	case "", "list":
		args = []string{"branch", "--list", "-v"}
		if a.All {
			args = append(args, "--all")
		}
	case "create":
		args = []string{"branch", "--end-of-options", a.Name}
	case "switch":
		args = []string{"switch"}
		if a.Create {
			args = append(args, "--create="+a.Name, "--end-of-options")
		} else {
			args = append(args, "--end-of-options", a.Name)
		}
	}
	if a.Start != "" {
		args = append(args, a.Start)
	}
	out, err := run(ctx, call.Env, readTimeout, "", args...)
	if err != nil {
		return tools.Errorf("%s: %v", BranchName, err), nil
	}
	if a.Action == "" || a.Action == "list" {
		return result(BranchName, out, nil, "(no branches yet)"), nil
	}
	return tools.Text(a.change() + ": done\n" + strings.TrimSpace(out)), nil
}

// check validates the combination of arguments and the branch name.
func (a branchArgs) check(ctx context.Context, env *tools.Env) error {
	creates := a.Action == "create" || a.Action == "switch" && a.Create
	switch {
	case a.Action != "" && a.Action != "list" && a.Action != "create" && a.Action != "switch":
		return fmt.Errorf("unknown action %q; use list, create or switch", a.Action)
	case (a.Action == "" || a.Action == "list") && (a.Name != "" || a.Start != "" || a.Create):
		return fmt.Errorf("list takes no name, start or create")
	case a.Action != "" && a.Action != "list" && a.Name == "":
		return fmt.Errorf("%s needs a name", a.Action)
	case a.Start != "" && !creates:
		return fmt.Errorf("start is only for a branch being created")
	case a.All && a.Action != "" && a.Action != "list":
		return fmt.Errorf("all is only for list")
	}
	if err := checkRev("start", a.Start); err != nil {
		return err
	}
	if err := checkRev("branch name", a.Name); err != nil || !creates {
		return err
	}
	if _, err := run(ctx, env, readTimeout, "", "check-ref-format", "--branch", a.Name); err != nil {
		return fmt.Errorf("%q is not a valid branch name", a.Name)
	}
	return nil
}
