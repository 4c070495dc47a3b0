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
)

// Direction says which side sends a method.
type Direction string

// Directions of the methods table.
const (
	ClientToServer Direction = "C2S"
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
