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
