package bridge

import (
	"context"
	"errors"
	"fmt"

	"tai/internal/mcp/config"
	"tai/internal/mcp/resolve"
	"tai/internal/tools"
	"tai/internal/vault"
)

// Environment of the GitHub resolver.
const (
	// EnvGitHubAPI overrides the GitHub API base URL (GitHub Enterprise,
	// tests); the default is resolve.DefaultAPI.
	EnvGitHubAPI = "TAI_GITHUB_API_URL"
	// EnvGitHubToken is read from the environment, else from the
	// profile's vault secret of the same name.
	EnvGitHubToken = "GITHUB_TOKEN"
)

// GitHub returns the GitHub resolver for Add on b's profile. subagents
// gives the host's default runner for the agent pass, and is called only
// when the deterministic pass finds nothing; nil means b.Subagents.
func (b *Bridge) GitHub(subagents func(context.Context) (tools.Subagents, error)) Resolver {
	if subagents == nil {
		subagents = b.Subagents
	}
	return func(ctx context.Context, ref *config.GitHubRef) ([]config.Entry, error) {
		gh, err := b.gitHubAPI(ctx)
		if err != nil {
			return nil, err
		}
		r := &resolve.Resolver{GitHub: gh, Subagents: subagents}
		return r.Resolve(ctx, ref)
	}
}

func (b *Bridge) gitHubAPI(ctx context.Context) (*resolve.GitHub, error) {
	gh := &resolve.GitHub{Client: b.HTTPClient}
	gh.BaseURL, _ = b.lookupEnv(EnvGitHubAPI)
	if tok, ok := b.lookupEnv(EnvGitHubToken); ok && tok != "" {
		gh.Token = tok
		return gh, nil
	}
	tok, err := b.Store.Secret(ctx, b.Profile, EnvGitHubToken)
	switch {
	case err == nil:
		gh.Token = tok
	case !vault.IsNotFound(err):
		return nil, fmt.Errorf("reading vault secret %s: %w", EnvGitHubToken, err)
	}
	return gh, nil
}

// hostSubagents is the runner of a tool call's host.
func hostSubagents(env *tools.Env) func(context.Context) (tools.Subagents, error) {
	return func(context.Context) (tools.Subagents, error) {
		if env == nil || env.Subagents == nil {
			return nil, errors.New("this host runs no subagents")
		}
		return env.Subagents, nil
	}
}
