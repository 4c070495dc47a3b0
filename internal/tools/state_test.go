package tools

import (
	"slices"
	"testing"
)

func TestState_CloseRunsClosersOnceNewestFirst(t *testing.T) {
	var s State
	var ran []int
	s.OnClose(func() { ran = append(ran, 1) })
	s.OnClose(func() { ran = append(ran, 2) })
	s.Close()
	s.Close()
	if !slices.Equal(ran, []int{2, 1}) {
		t.Fatalf("ran %v, want [2 1]", ran)
	}
	s.OnClose(func() { ran = append(ran, 3) })
	if !slices.Equal(ran, []int{2, 1, 3}) {
		t.Fatalf("a closer added after Close ran as %v, want at once", ran)
	}
}

// A value is made once per key and comes back typed; keys of one name
// and different types are different values; NewTurn drops turn values
// only.
func TestState_ValuesByTypedKey(t *testing.T) {
	var s State
	ints, strs := NewKey[*int]("same.name"), NewKey[*string]("same.name")
	made := 0
	mkInt := func() *int { made++; n := 7; return &n }
	a, b := Value(&s, ints, mkInt), Value(&s, ints, mkInt)
	if a != b || *a != 7 || made != 1 {
		t.Fatalf("made %d times, %p and %p", made, a, b)
	}
	word := "w"
	if got := Value(&s, strs, func() *string { return &word }); got != &word {
		t.Fatalf("a key of the same name and another type read %v", got)
	}
	turn := NewKey[*int]("turn")
	first := TurnValue(&s, turn, mkInt)
	s.NewTurn()
	if again := TurnValue(&s, turn, mkInt); again == first {
		t.Fatal("NewTurn kept a turn value")
	}
	if again := Value(&s, ints, mkInt); again != a {
		t.Fatal("NewTurn dropped a value of the whole session")
	}
}
