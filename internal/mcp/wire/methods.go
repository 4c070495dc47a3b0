package wire

// Method names of the wire subset tai speaks.
const (
	MethodInitialize  = "initialize"
	MethodInitialized = "notifications/initialized"
	MethodPing        = "ping"
	MethodToolsList   = "tools/list"
	MethodToolsCall   = "tools/call"
	MethodCancelled   = "notifications/cancelled"
	MethodDiscover    = "server/discover"

	MethodResourcesList        = "resources/list"
	MethodResourceTemplates    = "resources/templates/list"
	MethodResourcesRead        = "resources/read"
	MethodSubscribe            = "resources/subscribe"
	MethodUnsubscribe          = "resources/unsubscribe"
	MethodResourceUpdated      = "notifications/resources/updated"
	MethodResourcesListChanged = "notifications/resources/list_changed"
	MethodPromptsList          = "prompts/list"
	MethodPromptsGet           = "prompts/get"
	MethodPromptsListChanged   = "notifications/prompts/list_changed"
	MethodToolsListChanged     = "notifications/tools/list_changed"
	MethodComplete             = "completion/complete"
	MethodSetLevel             = "logging/setLevel"
	MethodLogMessage           = "notifications/message"
	MethodProgress             = "notifications/progress"
	MethodRootsList            = "roots/list"
	MethodRootsListChanged     = "notifications/roots/list_changed"
	MethodListen               = "subscriptions/listen"
	MethodListenAcknowledged   = "notifications/subscriptions/acknowledged"
	MethodElicit               = "elicitation/create"
	MethodSample               = "sampling/createMessage"
	MethodTasksGet             = "tasks/get"
	MethodTasksResult          = "tasks/result"
	MethodTasksCancel          = "tasks/cancel"
	MethodTasksList            = "tasks/list"
	MethodTasksUpdate          = "tasks/update"
	MethodTaskStatus           = "notifications/tasks/status"
	// MethodElicitComplete tells that the browser step of a URL
	// elicitation is done.
	MethodElicitComplete = "notifications/elicitation/complete"
)

// Direction says which side sends a method.
type Direction string

// Directions of the methods table.
const (
	ClientToServer Direction = "C2S"
	ServerToClient Direction = "S2C"
	Both           Direction = "both"
)

// Method is one row of the wire subset.
type Method struct {
	Name      string
	Direction Direction
	// Notification reports whether the method expects no answer.
	Notification bool
	// Served reports whether tai's own server (tai --serve-mcp) handles
	// the method when a client sends it.
	Served bool
	// Era names the only era that has the method ("session" or
	// "stateless"); empty means both.
	Era string
}

// Methods is the wire subset: every method tai sends or handles. Any other
// request reaching either side is answered CodeMethodNotFound; any other
// notification is ignored.
var Methods = []Method{
	{Name: MethodDiscover, Direction: ClientToServer, Served: true, Era: "stateless"},
	{Name: MethodInitialize, Direction: ClientToServer, Served: true, Era: "session"},
	{Name: MethodInitialized, Direction: ClientToServer, Notification: true, Served: true, Era: "session"},
	{Name: MethodPing, Direction: Both, Served: true, Era: "session"},
	{Name: MethodToolsList, Direction: ClientToServer, Served: true},
	{Name: MethodToolsCall, Direction: ClientToServer, Served: true},
	{Name: MethodCancelled, Direction: ClientToServer, Notification: true, Served: true},
	{Name: MethodResourcesList, Direction: ClientToServer, Served: true},
	{Name: MethodResourceTemplates, Direction: ClientToServer, Served: true},
	{Name: MethodResourcesRead, Direction: ClientToServer, Served: true},
	{Name: MethodSubscribe, Direction: ClientToServer, Served: true, Era: "session"},
	{Name: MethodUnsubscribe, Direction: ClientToServer, Served: true, Era: "session"},
	{Name: MethodResourceUpdated, Direction: ServerToClient, Notification: true},
	{Name: MethodResourcesListChanged, Direction: ServerToClient, Notification: true},
	{Name: MethodPromptsList, Direction: ClientToServer, Served: true},
	{Name: MethodPromptsGet, Direction: ClientToServer, Served: true},
	{Name: MethodPromptsListChanged, Direction: ServerToClient, Notification: true},
	{Name: MethodToolsListChanged, Direction: ServerToClient, Notification: true},
	{Name: MethodComplete, Direction: ClientToServer, Served: true},
	{Name: MethodSetLevel, Direction: ClientToServer, Served: true, Era: "session"},
	{Name: MethodLogMessage, Direction: ServerToClient, Notification: true},
	{Name: MethodProgress, Direction: Both, Notification: true},
	{Name: MethodRootsList, Direction: ServerToClient, Era: "session"},
	{Name: MethodRootsListChanged, Direction: ClientToServer, Notification: true, Era: "session"},
	{Name: MethodListen, Direction: ClientToServer, Era: "stateless"},
	{Name: MethodListenAcknowledged, Direction: ServerToClient, Notification: true, Era: "stateless"},
	{Name: MethodElicit, Direction: ServerToClient},
	{Name: MethodSample, Direction: ServerToClient},
	{Name: MethodTasksGet, Direction: ClientToServer, Served: true},
	{Name: MethodTasksResult, Direction: ClientToServer, Served: true, Era: "session"},
	{Name: MethodTasksCancel, Direction: ClientToServer, Served: true},
	{Name: MethodTasksList, Direction: ClientToServer, Served: true, Era: "session"},
	{Name: MethodTasksUpdate, Direction: ClientToServer, Served: true, Era: "stateless"},
	{Name: MethodTaskStatus, Direction: ServerToClient, Notification: true, Era: "session"},
	{Name: MethodElicitComplete, Direction: ServerToClient, Notification: true},
}

// ServedMethod returns the row of a method tai's server handles in era.
func ServedMethod(name string, era Era) (Method, bool) {
	for _, m := range Methods {
		if m.Name == name && m.Served && (m.Era == "" || m.Era == era.Name) {
			return m, true
		}
	}
	return Method{}, false
}

// In reports whether the method belongs to era.
func (m Method) In(era Era) bool { return m.Era == "" || m.Era == era.Name }
