package cli

import (
	"context"
	"errors"
	"os"
	"time"

	"tai/internal/agent"
	"tai/internal/llm"
	_ "tai/internal/llm/anthropic" // provider protocols, linked in
	_ "tai/internal/llm/openai"
	"tai/internal/profile"
	"tai/internal/tools"
	"tai/internal/tools/catalog"
	"tai/internal/vault"
)

// chat is one conversation of the REPL or of one-shot mode.
type chat struct {
	agent   *agent.Agent
	cfg     profile.Config
	session string
}

// Close ends what the conversation's tools started (background jobs,
// MCP server connections).
func (c *chat) Close() {
	c.agent.Env.State.Close()
}

// chatOptions says who is present and which conversation to continue.
type chatOptions struct {
	// Person answers consent screens; nil when nobody can be asked.
	Person agent.Consenter
	// Prompter answers ask_user; nil when nobody can be asked.
	Prompter tools.Prompter
	// Notices receives --auto notices and other one-liners.
	Notices func(string)
	// Continue resumes the latest conversation of this profile and
	// directory; Resume a chosen one.
	Continue bool
	Resume   string
}

// llmConfig turns a profile's model settings into a client configuration,
// finding the key in the environment, else in the profile's secrets.
func (a *App) llmConfig(ctx context.Context, cfg profile.Config) (llm.Config, error) {
	provider, model, err := llm.ParseModel(cfg.Model())
	if err != nil {
		return llm.Config{}, err
	}
	preset, _ := llm.PresetFor(provider)
	lc := llm.Config{Provider: provider, Model: model, BaseURL: cfg.Get(profile.KeyBaseURL)}
	if k := a.Getenv("TAI_API_KEY"); k != "" {
		lc.APIKey, lc.KeyEnv = k, "TAI_API_KEY"
		return lc, nil
	}
	if preset.KeyEnv == "" {
		return lc, nil
	}
	if k := a.Getenv(preset.KeyEnv); k != "" {
		lc.APIKey = k
		return lc, nil
	}
	k, err := a.store.Secret(ctx, cfg.Profile, preset.KeyEnv)
	switch {
	case err == nil:
		lc.APIKey = k
	case vault.IsNotFound(err):
	default:
		return lc, err
	}
	return lc, nil
}

// newChat builds the agent for a conversation on the current profile.
func (a *App) newChat(ctx context.Context, o chatOptions) (*chat, error) {
	cfg, err := a.Config(ctx)
	if err != nil {
		return nil, err
	}
	lc, err := a.llmConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	client, err := llm.New(lc)
	if err != nil {
		return nil, err
	}
	dir, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	reg := tools.NewRegistry(catalog.Native()...)
	env := &tools.Env{Dir: dir, Store: a.store, Profile: cfg.Profile, Prompter: o.Prompter, State: &tools.State{},
		Approval: cfg.Approval()}
	approver := &agent.Approver{Mode: cfg.Approval(), Store: a.store, Profile: cfg.Profile, Person: o.Person, Notices: o.Notices}
	b := a.attachBridge(reg, env, approver)
	env.State.OnClose(func() { b.Close() })
	ag := &agent.Agent{
		Client:   client,
		Tools:    reg,
		Selector: agent.AllTools{Registry: reg},
		Approver: approver,
		Env:      env,
		System:   agent.SystemPrompt(dir, cfg.Approval(), cfg.Get(profile.KeySystemPrompt), time.Now()),
		MaxSteps: cfg.MaxSteps(),
	}
	env.Subagents = agent.NewRunner(ag)
	c := &chat{agent: ag, cfg: cfg}
	if err := a.openSession(ctx, c, dir, o); err != nil {
		return nil, err
	}
	return c, nil
}

// openSession attaches the conversation's stored history: a resumed one,
// or a new session.
func (a *App) openSession(ctx context.Context, c *chat, dir string, o chatOptions) error {
	var sess vault.Session
	var err error
	switch {
	case o.Resume != "":
		sess, err = a.store.Session(ctx, o.Resume)
		if err == nil && sess.Profile != c.cfg.Profile {
			err = usageError("session %s belongs to profile %s; add --profile %s", sess.ID, sess.Profile, sess.Profile)
		}
	case o.Continue:
		sess, err = a.store.LatestSession(ctx, c.cfg.Profile, dir)
	}
	if err != nil {
		return err
	}
	if sess.ID == "" {
		id, err := a.store.NewSession(ctx, c.cfg.Profile, dir)
		if err != nil {
			return err
		}
		sess.ID = id
	} else {
		msgs, err := agent.LoadHistory(ctx, a.store, c.cfg.Profile, sess.ID)
		if err != nil {
			return err
		}
		c.agent.SetMessages(msgs)
	}
	c.session = sess.ID
	c.agent.Env.Session = sess.ID
	c.agent.History = agent.VaultHistory{Store: a.store, Profile: c.cfg.Profile, Session: sess.ID}
	return nil
}

// turnError turns a failed turn into the one line the person sees.
func turnError(err error) error {
	if errors.Is(err, context.Canceled) {
		return withCode(ExitFailed, errors.New("cancelled"))
	}
	return withCode(ExitFailed, err)
}
