package tools

import "reflect"

// Safety classes of a tool's rule, as `tai tools list` shows them.
const (
	SafetySafe    = "safe"    // never asks: read-only, or tai's own scratch state
	SafetyAsks    = "asks"    // always asks
	SafetyDepends = "depends" // safe for some arguments only (a read-only shell command)
)

// Safety classifies t's safety rule without calling it: no rule asks,
// AlwaysSafe is safe, and any other rule depends on the arguments.
func (t *Tool) Safety() string {
	switch {
	case t.Safe == nil:
		return SafetyAsks
	case reflect.ValueOf(t.Safe).Pointer() == reflect.ValueOf(AlwaysSafe).Pointer():
		return SafetySafe
	}
	return SafetyDepends
}
