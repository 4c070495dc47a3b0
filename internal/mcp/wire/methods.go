package wire

// Method names of the wire subset tai speaks.
const (
	MethodInitialize  = "initialize"
	MethodInitialized = "notifications/initialized"
	MethodPing        = "ping"
	MethodToolsList   = "tools/list"
	MethodToolsCall   = "tools/call"
	MethodCancelled   = "notifications/cancelled"
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
}

// Methods is the wire subset: every method tai sends or handles. Any other
// request reaching either side is answered CodeMethodNotFound; any other
// notification is ignored.
var Methods = []Method{
	{MethodInitialize, ClientToServer, false},
	{MethodInitialized, ClientToServer, true},
	{MethodPing, Both, false},
	{MethodToolsList, ClientToServer, false},
	{MethodToolsCall, ClientToServer, false},
	{MethodCancelled, ClientToServer, true},
}
