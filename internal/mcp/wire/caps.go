package wire

import (
	"strconv"
	"time"
)

// The caps of mcp.md, each with the spec's value, in this one place. KB and
// MB in the spec mean KiB and MiB.
const (
	ConnectTimeout  = 20 * time.Second   // MCP_CONNECT_TIMEOUT
	InstallTimeout  = 180 * time.Second  // MCP_INSTALL_TIMEOUT
	MaxStartup      = 600 * time.Second  // MCP_MAX_STARTUP
	CallTimeout     = 60 * time.Second   // MCP_CALL_TIMEOUT
	ResultMax       = 64 << 10           // MCP_RESULT_MAX, bytes
	HTTPMaxBody     = 10 << 20           // MCP_HTTP_MAX_BODY, bytes
	MaxServers      = 32                 // MCP_MAX_SERVERS
	MaxTools        = 100                // MCP_MAX_TOOLS
	MaxListedTools  = 1000               // MCP_MAX_LISTED_TOOLS
	MaxListBytes    = 4 << 20            // MCP_MAX_LIST_BYTES
	MaxToolBytes    = 64 << 10           // MCP_MAX_TOOL_BYTES
	MaxResources    = 10000              // MCP_MAX_LISTED_RESOURCES
	MaxPrompts      = 1000               // MCP_MAX_LISTED_PROMPTS
	ResourceMax     = 8 << 20            // MCP_RESOURCE_MAX, bytes
	MaxLogLines     = 1000               // MCP_MAX_LOG_LINES
	LogLineMax      = 4 << 10            // MCP_LOG_LINE_MAX, bytes
	CallMaxTotal    = 3600 * time.Second // MCP_CALL_MAX_TOTAL
	TaskBackground  = 10 * time.Second   // MCP_TASK_BACKGROUND
	SessionIdle     = 3600 * time.Second // MCP_SESSION_IDLE
	ChatTimeout     = 600 * time.Second  // MCP_CHAT_TIMEOUT
	ResolverTimeout = 300 * time.Second  // MCP_RESOLVER_TIMEOUT
	ResolverSteps   = 12                 // MCP_RESOLVER_STEPS
	OAuthTimeout    = 300 * time.Second  // MCP_OAUTH_TIMEOUT
	DefaultPort     = 8765               // MCP_DEFAULT_PORT

	ElicitMaxBytes    = 64 << 10  // MCP_ELICIT_MAX_BYTES, bytes
	ElicitMaxFields   = 32        // MCP_ELICIT_MAX_FIELDS
	ElicitMessageMax  = 4 << 10   // MCP_ELICIT_MESSAGE_MAX, bytes
	SamplingMaxTokens = 4096      // MCP_SAMPLING_MAX_TOKENS
	SamplingMaxBytes  = 256 << 10 // MCP_SAMPLING_MAX_BYTES, bytes
)

// Constant is one MCP_* name of the design with the Go value it maps to,
// written the way the docs write it.
type Constant struct {
	Name    string // MCP_CALL_TIMEOUT
	Value   string // 60s
	Meaning string
}

// Constants lists every MCP_* name, read by the docs drift test and by
// anything that prints the caps. Values are formatted from the Go constants
// above, so they cannot disagree with them.
var Constants = []Constant{
	{"MCP_PROTOCOL_VERSION", ProtocolVersion, "session-era revision tai offers in initialize"},
	{"MCP_STATELESS_VERSION", StatelessVersion, "stateless-era revision tai tries first"},
	{"MCP_CONNECT_TIMEOUT", seconds(ConnectTimeout), "spawn or dial plus handshake, per server"},
	{"MCP_INSTALL_TIMEOUT", seconds(InstallTimeout), "first start of a package runner's server (npx, uvx, bunx, pnpm dlx) at registration, install included"},
	{"MCP_MAX_STARTUP", seconds(MaxStartup), "the most a pasted startup_timeout_sec or startup_timeout_ms may raise a first start to"},
	{"MCP_CALL_TIMEOUT", seconds(CallTimeout), "one request; a tools/call is then cancelled and fails locally"},
	{"MCP_RESULT_MAX", size(ResultMax), "tool result text kept inline; larger spills to a vault record"},
	{"MCP_HTTP_MAX_BODY", size(HTTPMaxBody), "largest message: an HTTP body either way, one stdio line"},
	{"MCP_MAX_SERVERS", strconv.Itoa(MaxServers), "registered servers"},
	{"MCP_MAX_TOOLS", strconv.Itoa(MaxTools), "tools bridged per server"},
	{"MCP_MAX_LISTED_TOOLS", strconv.Itoa(MaxListedTools), "tools a server may list, over all pages"},
	{"MCP_MAX_LIST_BYTES", size(MaxListBytes), "bytes a server's tool list may take, over all pages"},
	{"MCP_MAX_TOOL_BYTES", size(MaxToolBytes), "bytes of one listed tool's definition"},
	{"MCP_MAX_LISTED_RESOURCES", strconv.Itoa(MaxResources), "resources and templates a server may list, each over all pages"},
	{"MCP_MAX_LISTED_PROMPTS", strconv.Itoa(MaxPrompts), "prompts a server may list, over all pages"},
	{"MCP_RESOURCE_MAX", size(ResourceMax), "decoded bytes of one resources/read; a larger blob or text is refused"},
	{"MCP_MAX_LOG_LINES", strconv.Itoa(MaxLogLines), "server log lines (notifications/message) kept per server; older ones are dropped"},
	{"MCP_LOG_LINE_MAX", size(LogLineMax), "bytes of one kept log line; the rest is cut with a mark"},
	{"MCP_CALL_MAX_TOTAL", seconds(CallMaxTotal), "the most progress notifications may stretch one request to; MCP_CALL_TIMEOUT is then an idle limit"},
	{"MCP_TASK_BACKGROUND", seconds(TaskBackground), "a task-backed tools/call in the REPL still running after this goes to the background; its result comes with the next message"},
	{"MCP_SESSION_IDLE", seconds(SessionIdle), "idle served sessions are dropped"},
	{"MCP_CHAT_TIMEOUT", seconds(ChatTimeout), "deadline per served chat turn"},
	{"MCP_RESOLVER_TIMEOUT", seconds(ResolverTimeout), "deadline for the GitHub resolver subagent"},
	{"MCP_RESOLVER_STEPS", strconv.Itoa(ResolverSteps), "agent steps for one GitHub resolution"},
	{"MCP_OAUTH_TIMEOUT", seconds(OAuthTimeout), "wait for the browser redirect of a login"},
	{"MCP_DEFAULT_PORT", strconv.Itoa(DefaultPort), "port of the served endpoint"},
	{"MCP_ELICIT_MAX_BYTES", size(ElicitMaxBytes), "bytes of one elicitation's params as sent; a larger one is refused before anyone is asked"},
	{"MCP_ELICIT_MAX_FIELDS", strconv.Itoa(ElicitMaxFields), "fields of one elicitation form; a form with more is refused"},
	{"MCP_ELICIT_MESSAGE_MAX", size(ElicitMessageMax), "bytes of an elicitation's message, field title or description shown; the rest is cut with a mark"},
	{"MCP_SAMPLING_MAX_TOKENS", strconv.Itoa(SamplingMaxTokens), "the most tokens a server's sampling request gets from tai's model; a larger maxTokens is clamped"},
	{"MCP_SAMPLING_MAX_BYTES", size(SamplingMaxBytes), "bytes of one sampling request's params; a larger one is refused"},
}

// Lookup finds the MCP_* name in Constants.
func Lookup(name string) (Constant, bool) {
	for _, c := range Constants {
		if c.Name == name {
			return c, true
		}
	}
	return Constant{}, false
}

func seconds(d time.Duration) string { return strconv.Itoa(int(d/time.Second)) + "s" }

func size(n int) string {
	if n%(1<<20) == 0 {
		return strconv.Itoa(n>>20) + "MiB"
	}
	return strconv.Itoa(n>>10) + "KiB"
}
