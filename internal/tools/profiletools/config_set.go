package profiletools

import (
	"context"
	"fmt"
	"strconv"

	"tai/internal/profile"
	"tai/internal/tools"
	"tai/internal/vault"
)

func configSetConsent(call tools.Call, in setArgs) tools.Consent {
	key := string(in.Key)
	c := tools.Consent{Title: fmt.Sprintf("%s: %s", ConfigSetName, key)}
	if in.Value == "" {
		c.Detail = fmt.Sprintf("remove %s from profile %s, so the default applies", key, call.Env.Profile)
	} else {
		c.Detail = fmt.Sprintf("set %s = %q in profile %s", key, in.Value, call.Env.Profile)
	}
	if s, err := call.Env.Vault(); err == nil {
		if v, ok, err := s.Setting(context.Background(), call.Env.Profile, key); err == nil && ok {
			c.Detail += fmt.Sprintf(" (now %q)", v)
		}
		c.Detail = s.Redact(c.Detail)
	}
	return c
}

type setArgs struct {
	Key   settingKey `json:"key" jsonschema:"The setting."`
	Value string     `json:"value" jsonschema:"The new value; \"\" removes the profile's value so the default applies." maxLength:"16384"`
}

func configSet(ctx context.Context, s *vault.Store, call tools.Call, in setArgs) (string, error) {
	key := string(in.Key)
	effective := in.Value
	if effective == "" {
		k, _ := profile.LookupKey(key)
		effective = k.Default
	} else if err := profile.Validate(key, in.Value); err != nil {
		return "", err
	}
	if key == profile.KeyApproval {
		if err := checkNotRaised(call.Env, effective, "refusing to set", fmt.Sprintf("tai profile set approval %s --profile %s", effective, call.Env.Profile)); err != nil {
			return "", err
		}
	}
	if on, _ := strconv.ParseBool(effective); key == profile.KeySamplingAuto && on {
		return "", fmt.Errorf("refusing to set sampling_auto: no tool can let MCP servers use the model unasked (a person can, with `tai profile set sampling_auto true --profile %s`)", call.Env.Profile)
	}
	var out, kind string
	if in.Value == "" {
		if err := s.DeleteSetting(ctx, call.Env.Profile, key); err != nil {
			return "", err
		}
		out, kind = fmt.Sprintf("removed %s from profile %s; the default applies", key, call.Env.Profile), "setting-unset"
	} else {
		if err := s.SetSetting(ctx, call.Env.Profile, key, in.Value); err != nil {
			return "", err
		}
		out, kind = fmt.Sprintf("set %s in profile %s", key, call.Env.Profile), "setting-set"
	}
	out += "; tai runs started from now on use it"
	if k, _ := profile.LookupKey(key); k.Env != "" && getenv(k.Env) != "" {
		out += fmt.Sprintf(", except that %s is set in the environment and overrides it", k.Env)
	}
	return out + call.Env.AuditChange(ctx, kind, key), nil
}
