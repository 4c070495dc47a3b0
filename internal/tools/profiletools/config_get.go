package profiletools

import (
	"context"
	"fmt"
	"strings"

	"tai/internal/profile"
	"tai/internal/tools"
	"tai/internal/tools/schema"
	"tai/internal/vault"
)

// settingKey is a setting's name: one of profile.Keys, each listed with
// its help in the schema.
type settingKey string

// JSONSchema lists the settings.
func (settingKey) JSONSchema() schema.Node {
	n := schema.Node{Type: "string"}
	var help []string
	for _, k := range profile.Keys {
		n.Enum = append(n.Enum, k.Name)
		help = append(help, k.Name+": "+k.Help)
	}
	n.Description = strings.Join(help, "; ") + "."
	return n
}

func configGet(ctx context.Context, s *vault.Store, call tools.Call, in configGetArgs) (string, error) {
	name := in.Profile
	if name == "" {
		name = call.Env.Profile
	}
	c, warn, err := resolve(ctx, s, call.Env, name)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "profile %s:\n", name)
	for _, v := range c.Sorted() {
		if in.Key != "" && v.Key != string(in.Key) {
			continue
		}
		val := v.Value
		if val == "" {
			val = "(empty)"
		}
		fmt.Fprintf(&b, "%s\t%s\tfrom %s\n", v.Key, strings.ReplaceAll(val, "\n", `\n`), v.Source)
	}
	if warn != "" {
		b.WriteString("warning: " + warn + "\n")
	}
	return b.String(), nil
}

type configGetArgs struct {
	Key     settingKey `json:"key,omitempty" jsonschema:"Only this setting."`
	Profile string     `json:"profile,omitempty" jsonschema:"Another profile to inspect." pattern:"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"`
}

// resolve is profile.Resolve with the host's approval mode for the host's
// own profile. An invalid stored value is a warning, not a failure, so the
// rest can still be read.
func resolve(ctx context.Context, s *vault.Store, env *tools.Env, name string) (profile.Config, string, error) {
	c, err := profile.Resolve(ctx, s, name, getenv, profile.Flags{})
	if c.Values == nil {
		return c, "", err
	}
	warn := ""
	if err != nil {
		warn = err.Error()
	}
	if name == env.Profile && env.Approval != "" && env.Approval != c.Approval() {
		c.Values[profile.KeyApproval] = profile.Value{Key: profile.KeyApproval, Value: env.Approval, Source: "this session"}
	}
	return c, warn, nil
}
