package selector

import "testing"

// SetMeaning sets the two weights of meaning in a request's ranking
// (nearWeight, neighbourWeight) and returns a function that puts back
// the values before.
func SetMeaning(near, neighbour float64) (undo func()) {
	w, p := nearWeight, neighbourWeight
	nearWeight, neighbourWeight = near, neighbour
	return func() { nearWeight, neighbourWeight = w, p }
}

// Lexical switches meaning off for the rest of t: the test holds what the
// words alone do (on a catalogue of a few tools, the nearest in meaning to
// any request is one of them).
func Lexical(t testing.TB) {
	t.Cleanup(SetMeaning(0, 0))
}

// Meaning is the weights of meaning in a request's ranking (nearWeight,
// neighbourWeight).
func Meaning() (near, neighbour float64) { return nearWeight, neighbourWeight }
