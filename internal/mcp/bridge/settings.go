package bridge

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"tai/internal/mcp/config"
	"tai/internal/mcp/wire"
	"tai/internal/vault"
)

// A server's settings (tai mcp set SERVER KEY=VALUE): how much of its
// log tai asks for, and whether it is told of the workspace.
const (
	SettingLogLevel = "log_level"
	SettingRoots    = "roots"
)

// Settings are the keys tai mcp set knows, each with its values; the
// first is the default.
var Settings = map[string][]string{
	SettingLogLevel: append([]string{DefaultLogLevel}, wire.LogLevels...),
	SettingRoots:    {"on", "off"},
	SettingSandbox:  {"files", "strict", "off"},
}

// SettingError is a setting tai does not know, or a value it may not take.
type SettingError struct{ Msg string }

func (e *SettingError) Error() string { return e.Msg }

// Set changes a server's settings, all or none, and audits the change
// (mcp-set). A value equal to the default removes the setting. New
// connections to the server use them; open ones keep what they began
// with.
func (b *Bridge) Set(ctx context.Context, server string, set map[string]string) error {
	stored := map[string]string{}
	var shown []string
	for k, v := range set {
		if k == SettingSandboxHosts {
			var hosts []string
			for _, h := range strings.Split(v, ",") {
				if h = strings.ToLower(strings.TrimSpace(h)); h == "" {
					continue
				}
				if err := config.CheckSandboxHost(h); err != nil {
					return &SettingError{fmt.Sprintf("%s: %v; give hosts separated by commas, or nothing for the whole network", k, err)}
				}
				hosts = append(hosts, h)
			}
			stored[k] = strings.Join(hosts, "\n")
			shown = append(shown, k+"="+strings.Join(hosts, ","))
			continue
		}
		if _, ok := limits[k]; ok {
			s, err := parseLimit(k, v)
			if err != nil {
				return err
			}
			stored[k] = s
			shown = append(shown, k+"="+v)
			continue
		}
		values, ok := Settings[k]
		if !ok {
			return &SettingError{fmt.Sprintf("no setting %q: tai mcp set knows %s", k, strings.Join(settingKeys(), ", "))}
		}
		if !slices.Contains(values, v) {
			return &SettingError{fmt.Sprintf("%s=%q: write one of %s", k, v, strings.Join(values[1:], ", "))}
		}
		if v == values[0] {
			v = ""
		}
		stored[k] = v
		shown = append(shown, k+"="+set[k])
	}
	if err := b.Store.SetMCPSettings(ctx, server, stored); err != nil {
		return err
	}
	sort.Strings(shown)
	b.audit(ctx, vault.KindMCPSet, server+":"+strings.Join(shown, ","))
	return nil
}

// SettingsOf are a server's settings, defaults filled in.
func (b *Bridge) SettingsOf(ctx context.Context, server string) (map[string]string, error) {
	if _, err := b.Store.MCPServer(ctx, server); err != nil {
		return nil, err
	}
	stored, err := b.Store.MCPSettings(ctx, server)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for k, values := range Settings {
		out[k] = values[0]
		if v, ok := stored[k]; ok && slices.Contains(values, v) {
			out[k] = v
		}
	}
	out[SettingSandboxHosts] = strings.Join(splitLines(stored[SettingSandboxHosts]), ",")
	for k, l := range limits {
		out[k] = config.Seconds(l.Default)
		if d, ok := b.ownLimit(server, k); ok {
			out[k] = config.Seconds(d)
		}
	}
	return out, nil
}

func settingKeys() []string {
	keys := make([]string, 0, len(Settings)+len(limits)+1)
	keys = append(keys, SettingSandboxHosts)
	for k := range Settings {
		keys = append(keys, k)
	}
	for k := range limits {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// setting is one of a server's settings, its default when unset or
// unreadable.
func (b *Bridge) setting(server, key string) string {
	s, err := b.SettingsOf(context.Background(), server)
	if err != nil {
		return Settings[key][0]
	}
	return s[key]
}
