package cli

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"tai/internal/llm"
	"tai/internal/profile"
	"tai/internal/vault"
)

// doctorModel checks the profile's model: its provider, base URL, key,
// and (unless offline) that the provider answers a cheap request.
func (a *App) doctorModel(ctx context.Context, o doctorOptions) []finding {
	cfg, err := a.Config(ctx)
	if err != nil {
		return []finding{findFail("model", "profile", err.Error(), "check --profile and tai profile show")}
	}
	provider, model, err := llm.ParseModel(cfg.Model())
	if err != nil {
		return []finding{findFail("model", "name", err.Error(), "set a model as provider:model with --model or TAI_MODEL")}
	}
	preset, known := llm.PresetFor(provider)
	if !known {
		return []finding{findFail("model", "provider", "unknown provider "+provider, "use one of the providers the README lists")}
	}
	base := cfg.Get(profile.KeyBaseURL)
	if base == "" {
		base = preset.BaseURL
	}
	fs := []finding{findOK("model", "preset", fmt.Sprintf("%s:%s", provider, model))}
	if base == "" {
		return append(fs, findFail("model", "base URL", provider+" has no default base URL",
			"set TAI_BASE_URL (for example "+preset.BaseURLExample+")"))
	}
	fs = append(fs, findOK("model", "base URL", base))
	key, from, err := a.modelKey(ctx, cfg, preset)
	switch {
	case err != nil:
		fs = append(fs, findFail("model", "key", "cannot read "+preset.KeyEnv+" from the vault: "+err.Error(), "unlock the vault with TAI_VAULT_PASSPHRASE"))
	case key == "" && preset.KeyRequired:
		fs = append(fs, findFail("model", "key", "no "+preset.KeyEnv+" in the environment or the vault",
			"export "+preset.KeyEnv+", or store it: tai secret set "+preset.KeyEnv))
	case key == "":
		fs = append(fs, findOK("model", "key", provider+" needs none"))
	default:
		fs = append(fs, findOK("model", "key", "from "+from))
	}
	if o.offline {
		return append(fs, findSkip("model", "reachable", "--offline: no request sent"))
	}
	return append(fs, probeModel(ctx, preset, base, key, o.timeout))
}

// modelKey finds the key as llmConfig does, saying where it came from.
func (a *App) modelKey(ctx context.Context, cfg profile.Config, preset llm.Preset) (key, from string, err error) {
	if k := a.Getenv("TAI_API_KEY"); k != "" {
		return k, "TAI_API_KEY (environment)", nil
	}
	if preset.KeyEnv == "" {
		return "", "", nil
	}
	if k := a.Getenv(preset.KeyEnv); k != "" {
		return k, preset.KeyEnv + " (environment)", nil
	}
	k, err := a.store.Secret(ctx, cfg.Profile, preset.KeyEnv)
	switch {
	case err == nil:
		return k, preset.KeyEnv + " (vault, profile " + cfg.Profile + ")", nil
	case vault.IsNotFound(err):
		return "", "", nil
	}
	return "", "", err
}

// probeModel lists the provider's models: answered at all means
// reachable, 401 or 403 means the key is refused. Redirects are not
// followed, so the key goes to no other origin.
func probeModel(ctx context.Context, preset llm.Preset, base, key string, timeout time.Duration) finding {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, trimURL(base)+"/models", nil)
	if err != nil {
		return findFail("model", "reachable", err.Error(), "check TAI_BASE_URL")
	}
	if key != "" {
		if preset.Protocol == llm.ProtocolAnthropic {
			req.Header.Set("x-api-key", key)
			req.Header.Set("anthropic-version", "2023-06-01")
		} else {
			req.Header.Set("Authorization", "Bearer "+key)
		}
	}
	start := time.Now()
	resp, err := (&http.Client{CheckRedirect: noRedirects}).Do(req)
	if err != nil {
		return findFail("model", "reachable", "no answer from "+base+": "+err.Error(), "check the network, a proxy, or TAI_BASE_URL; --offline skips this")
	}
	resp.Body.Close()
	took := time.Since(start).Round(time.Millisecond)
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return findFail("model", "reachable", fmt.Sprintf("%s refused the key (%s)", base, resp.Status), "check the key's value and that it is for "+preset.Name)
	case resp.StatusCode >= 500:
		return findFail("model", "reachable", fmt.Sprintf("%s answered %s", base, resp.Status), "the provider has trouble; try again later")
	}
	return findOK("model", "reachable", fmt.Sprintf("%s answered in %s (%s)", base, took, resp.Status))
}
