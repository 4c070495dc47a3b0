package reaper

import (
	"os"
	"strconv"
	"strings"
)

// Process is one entry of /proc as its stat file tells it.
type Process struct {
	PID, PPID, PGID int
	// State is the stat file's state letter: "Z" for a zombie, "X" dead.
	State string
	// ExitCode is the stat file's last field, non-zero once exit began.
	ExitCode string
}

// Processes lists every process of /proc in one pass; one that ends
// meanwhile is left out.
func Processes() []Process {
	ents, _ := os.ReadDir("/proc")
	var out []Process
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // gone meanwhile
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]) // state ppid pgrp …
		if len(f) < 3 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		pgid, _ := strconv.Atoi(f[2])
		out = append(out, Process{PID: pid, PPID: ppid, PGID: pgid, State: f[0], ExitCode: f[len(f)-1]})
	}
	return out
}
