package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"tai/internal/sandbox"
	"time"

	"tai/internal/agent"
	"tai/internal/catalog"
	"tai/internal/llm"
	_ "tai/internal/llm/anthropic" // provider protocols, linked in
	_ "tai/internal/llm/openai"
	"tai/internal/mcp/bridge"
	"tai/internal/profile"
	"tai/internal/repl"
	"tai/internal/textsafe"
	"tai/internal/tools"
	"tai/internal/vault"
)

// chat is one conversation of the REPL or of one-shot mode.
type chat struct {
	a     *App
	agent *agent.Agent
	cfg   profile.Config
	dir   string
	// session is the stored conversation, "" until the first turn
	// creates it.
	session string
	// problem says why the model cannot be reached; agent has no client
	// then.
	problem string
	// model is what tai knows of the model: its window (the profile's
	// context_window setting first) and prices.
	model llm.Model
	// bridge is the profile's MCP bridge, for its prompts.
	bridge *bridge.Bridge
}

// modelOf is what tai knows of cfg's model, its window overridden by the
// context_window setting.
func modelOf(cfg profile.Config) (llm.Model, bool) {
	var m llm.Model
	ok := false
	if provider, model, err := llm.ParseModel(cfg.Model()); err == nil {
		m, ok = llm.ModelFor(provider, model)
	}
	if n, err := strconv.Atoi(cfg.Get(profile.KeyContextWindow)); err == nil && n > 0 {
		m.Window, ok = n, true
	}
	return m, ok
}

// Close ends what the conversation's tools started (background jobs,
// MCP server connections).
func (c *chat) Close() {
	c.agent.Env.State.Close()
}

// chatAgent is the agent a conversation on o's profile would run, or the
// reason the model cannot be reached (the GitHub resolver's agent pass
// forks from it).
func (a *App) chatAgent(ctx context.Context, o chatOptions) (*agent.Agent, error) {
	c, err := a.newChat(ctx, o)
	if err != nil {
		return nil, err
	}
	if c.problem != "" {
		c.Close()
		return nil, errors.New(c.problem)
	}
	return c.agent, nil
}

// chatOptions says who is present and which conversation to open.
type chatOptions struct {
	// Profile and Model override --profile and --model when not "".
	Profile, Model string
	// Person answers consent screens; nil when nobody can be asked.
	Person agent.Consenter
	// Prompter answers ask_user; nil when nobody can be asked.
	Prompter tools.Prompter
	// Notices receives --auto notices and other one-liners.
	Notices func(string)
	// ServerLogs, when set, receives the notices of lines servers log at
	// error and above (the REPL's screen).
	ServerLogs func(string)
	// Arrived, when set, lets a task-backed MCP call go to the background
	// and receives its end (the REPL: a notice now, the result for the
	// model with the next message).
	Arrived func(notice, forModel string)
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

// newChat builds the agent for a conversation. A model that cannot be
// reached (no key, an unknown provider) is not an error here: the chat
// carries the problem, so the REPL can start and let it be fixed.
func (a *App) newChat(ctx context.Context, o chatOptions) (*chat, error) {
	cfg, err := a.configFor(ctx, o.Profile, o.Model)
	if err != nil {
		return nil, err
	}
	th, err := a.newToolHost(cfg, agentSetup{Person: o.Person, Prompter: o.Prompter, Notices: o.Notices, ServerLogs: o.ServerLogs, Arrived: o.Arrived})
	if err != nil {
		return nil, err
	}
	ag := th.agent(cfg)
	ag.Model = cfg.Model()
	c := &chat{a: a, agent: ag, cfg: cfg, dir: th.env.Dir, bridge: th.bridge}
	c.model, _ = modelOf(cfg)
	ag.Window = c.model.Window
	if ag.Client, err = a.llmClient(ctx, cfg); err != nil {
		var le *llm.Error
		if !errors.As(err, &le) {
			return nil, err
		}
		c.problem = err.Error()
	}
	th.env.Subagents = agent.NewRunner(ag)
	if err := c.resume(ctx, o); err != nil {
		return nil, err
	}
	return c, nil
}

// agentSetup says who is present for an agent, and whether it serves MCP
// clients.
type agentSetup struct {
	Person   agent.Consenter
	Prompter tools.Prompter
	Notices  func(string)
	// ServerLogs shows the notices of lines servers log at error and above.
	ServerLogs func(string)
	// Arrived receives the end of a task that went to the background.
	Arrived func(notice, forModel string)
	// Door is whom the host serves. tools.DoorServed builds for tai
	// --serve-mcp: bridged tools stay out of the registry (they are never
	// served, nor reachable from a served session's direct calls) and
	// nobody is asked. tools.DoorServedChat builds a served chat agent:
	// likewise, but the bridged tools enabled for the profile are in its
	// registry, as for any full agent (mcp.md).
	Door tools.Door
}

// toolHost is what an agent's tool calls run in: the registry, the
// environment and the approval policy of one profile.
type toolHost struct {
	reg      *tools.Registry
	env      *tools.Env
	approver *agent.Approver
	bridge   *bridge.Bridge
}

// deniedHost is the administrator's refusal of hosts, nil without a
// policy (configFor has read it, or failed).
func (a *App) deniedHost() func(string) bool {
	pol, err := a.policy()
	if err != nil || len(pol.DeniedHosts) == 0 {
		return nil
	}
	return pol.DeniesHost
}

// sandboxOf is how the tool host of cfg confines commands (nil: off). A
// kernel that cannot confine, or only in part, is said once, loudly.
func (a *App) sandboxOf(cfg profile.Config, notice func(string)) *tools.Sandbox {
	mode := cfg.Get(profile.KeySandbox)
	if mode == sandbox.Off {
		return nil
	}
	home, _ := os.UserHomeDir()
	sb := &tools.Sandbox{Mode: mode, Home: home, DeniedHost: a.deniedHost()}
	if a.store != nil {
		sb.TaiHome = filepath.Dir(a.store.Path())
	}
	if notice == nil {
		notice = func(s string) { fmt.Fprintln(a.Stderr, "tai: "+s) }
	}
	switch st := sandbox.Probe(); {
	case !st.Confines:
		sb.Unavailable = st.Why
		notice("sandbox unavailable: " + st.Why + "; every command asks you first (--sandbox off runs them unconfined without asking)")
	case st.Why != "":
		notice("sandbox partial: " + st.Why)
	}
	return sb
}

// newToolHost builds the tool host of cfg in the working directory: the
// native catalogue, plus the bridged tools of the profile's enabled
// servers unless served. The REPL, one-shot mode and tai --serve-mcp all
// build their agents on one; closing env.State closes the bridge.
func (a *App) newToolHost(cfg profile.Config, o agentSetup) (*toolHost, error) {
	dir, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	roots, err := a.addedDirs()
	if err != nil {
		return nil, err
	}
	reg := tools.NewRegistry(catalog.Native()...)
	env := &tools.Env{Dir: dir, Roots: roots, Store: a.store, Profile: cfg.Profile, Prompter: o.Prompter, State: &tools.State{},
		Approval: cfg.Approval(), Tools: reg, Door: o.Door, Sandbox: a.sandboxOf(cfg, o.Notices)}
	approver := &agent.Approver{Mode: cfg.Approval(), Store: a.store, Profile: cfg.Profile, Person: o.Person, Notices: o.Notices,
		DeniedHost: a.deniedHost()}
	var b *bridge.Bridge
	if o.Door != tools.DoorLocal {
		env.Prompter, approver.Person = nil, nil
		if o.Door == tools.DoorServedChat {
			b = a.attachBridge(reg, env, approver)
		} else {
			b = a.toolsBridge(reg, env, approver)
		}
		b.Browser = nil // nobody here to log in: no mcp_login, no step-up
		b.Confirm = nil // nobody here to see a changed launch: refused, pointing to a terminal
	} else {
		b = a.attachBridge(reg, env, approver)
	}
	if o.Notices != nil {
		b.Notice = o.Notices // the REPL shows them on its screen
	}
	b.LogNotice = o.ServerLogs
	if o.Arrived != nil {
		b.OnTaskDone = func(d bridge.TaskDone) { o.Arrived(taskDoneNotice(d), taskDoneForModel(d)) }
	}
	b.Roots = workspaceOf(env).roots
	notices := o.Notices
	if notices == nil {
		notices = agentNotices(a)
	}
	a.answerSampling(b, samplingHost{cfg: cfg, mode: approver.Mode, person: approver.Person, notices: notices,
		session: func() string { return env.Session }})
	env.State.OnClose(func() { b.Close() })
	return &toolHost{reg: reg, env: env, approver: approver, bridge: b}, nil
}

// agent is an agent of cfg on this tool host, without its model client
// and subagents, which the caller sets.
func (th *toolHost) agent(cfg profile.Config) *agent.Agent {
	return &agent.Agent{
		Tools:    th.reg,
		Selector: agent.LazyTools{Registry: th.reg, Selector: toolSelector(cfg)},
		Approver: th.approver,
		Env:      th.env,
		System:   agent.SystemPrompt(th.env.Dir, cfg.Approval(), cfg.Get(profile.KeySystemPrompt), time.Now()),
		MaxSteps: cfg.MaxSteps(),
	}
}

// llmClient is the profile's model client.
func (a *App) llmClient(ctx context.Context, cfg profile.Config) (llm.Client, error) {
	lc, err := a.llmConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return llm.New(lc)
}

// resume attaches a stored conversation when o asks for one.
func (c *chat) resume(ctx context.Context, o chatOptions) error {
	var sess vault.Session
	var err error
	store := c.a.store
	switch {
	case o.Resume != "":
		sess, err = store.Session(ctx, o.Resume)
		if err == nil && sess.Profile != c.cfg.Profile {
			err = usageError("session %s belongs to profile %s; add --profile %s", sess.ID, sess.Profile, sess.Profile)
		}
	case o.Continue:
		sess, err = store.LatestSession(ctx, c.cfg.Profile, c.dir)
	default:
		return nil
	}
	if err != nil {
		return err
	}
	msgs, err := agent.LoadHistory(ctx, store, c.cfg.Profile, sess.ID)
	if err != nil {
		return err
	}
	c.agent.SetMessages(msgs)
	c.attach(sess.ID)
	return nil
}

// attach makes session the conversation's stored home.
func (c *chat) attach(session string) {
	c.session = session
	c.agent.Env.Session = session
	c.agent.History = agent.VaultHistory{Store: c.a.store, Profile: c.cfg.Profile, Session: session}
}

// Info implements repl.Conversation.
func (c *chat) Info() repl.Info {
	return repl.Info{Profile: c.cfg.Profile, Model: c.cfg.Model(), Approval: c.cfg.Approval(),
		Session: c.session, Messages: len(c.agent.Messages()), Problem: c.problem,
		Window: c.model.Window, Price: c.model.Price}
}

// Compact implements repl.Conversation.
func (c *chat) Compact(ctx context.Context, onEvent func(agent.Event)) (int, error) {
	return c.agent.Compact(ctx, onEvent)
}

// RunTool implements repl.Conversation.
func (c *chat) RunTool(ctx context.Context, name string, args json.RawMessage, onEvent func(agent.Event)) (string, bool) {
	return c.agent.RunTool(ctx, name, args, onEvent)
}

// Turn implements repl.Conversation. The first turn stores the
// conversation, titled with its first line, so conversations that never
// started leave no trace.
func (c *chat) Turn(ctx context.Context, input string, onEvent func(agent.Event)) (agent.TurnResult, error) {
	if c.problem != "" {
		return agent.TurnResult{}, errors.New(c.problem)
	}
	if c.session == "" {
		id, err := c.a.store.NewSession(ctx, c.cfg.Profile, c.dir)
		if err != nil {
			return agent.TurnResult{}, err
		}
		_ = c.a.store.SetSessionTitle(ctx, id, firstLine(strings.TrimSpace(input), 80))
		c.attach(id)
	}
	return c.agent.RunTurn(ctx, input, agent.TurnOptions{OnEvent: onEvent})
}

// turnError turns a failed turn into the one line the person sees.
func turnError(err error) error {
	if errors.Is(err, context.Canceled) {
		return withCode(ExitFailed, errors.New("cancelled"))
	}
	return withCode(ExitFailed, err)
}

// taskDoneNotice tells the person a task that went to the background
// ended.
func taskDoneNotice(d bridge.TaskDone) string {
	how := "finished"
	if d.IsError {
		how = "failed"
	}
	return fmt.Sprintf("task %s of MCP server %s (%s) %s after %s; its result goes to the model with your next message",
		textsafe.VisibleLine(d.TaskID), d.Server, d.Tool, how, d.Took.Round(time.Second))
}

// taskDoneForModel is a background task's result as the model gets it.
func taskDoneForModel(d bridge.TaskDone) string {
	status := "its result"
	if d.IsError {
		status = "it failed"
	}
	return fmt.Sprintf("[The task %s of MCP server %s (tool %s) that went to the background has ended; %s follows.]\n%s\n\n",
		d.TaskID, d.Server, d.Tool, status, strings.TrimRight(d.Text, "\n"))
}
