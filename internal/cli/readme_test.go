package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// readmeCommands returns every tai command line in the README's shell
// blocks, split into words by sh itself (quotes as a person would type
// them). Pipelines keep only their tai part.
func readmeCommands(t *testing.T) [][]string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for _, block := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(string(b), -1) {
		for _, line := range strings.Split(block[1], "\n") {
			if i := strings.Index(line, "  #"); i >= 0 {
				line = line[:i]
			}
			for _, part := range strings.Split(line, "&&") {
				if seg := pipeSegment(part); seg != "" {
					out = append(out, shellWords(t, seg))
				}
			}
		}
	}
	return out
}

// pipeSegment is the part of a pipeline that runs tai, or "".
func pipeSegment(s string) string {
	for _, seg := range strings.Split(s, " | ") {
		seg = strings.TrimSpace(seg)
		if strings.HasPrefix(seg, "tai ") || seg == "tai" || strings.HasPrefix(seg, "./bin/tai") {
			return seg
		}
	}
	return ""
}

func shellWords(t *testing.T, line string) []string {
	t.Helper()
	out, err := exec.Command("sh", "-c", "printf '%s\\0' "+line).Output()
	if err != nil {
		t.Fatalf("sh cannot split %q: %v", line, err)
	}
	words := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	return words[1:] // drop "tai"
}

// TestREADME_CommandsParse keeps the README true: every tai command it
// shows names a real command with real flags and an acceptable number of
// arguments.
func TestREADME_CommandsParse(t *testing.T) {
	cmds := readmeCommands(t)
	if len(cmds) < 10 {
		t.Fatalf("found only %d tai commands in the README", len(cmds))
	}
	for _, args := range cmds {
		a := NewApp(strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{}, func(string) string { return "" })
		root := newRoot(a)
		cmd, rest, err := root.Find(args)
		if err != nil {
			t.Errorf("tai %s: %v", strings.Join(args, " "), err)
			continue
		}
		if err := cmd.ParseFlags(rest); err != nil && !errors.Is(err, pflag.ErrHelp) {
			t.Errorf("tai %s: %v", strings.Join(args, " "), err)
			continue
		}
		if !cmd.Runnable() {
			t.Errorf("tai %s: %q is not a command that runs", strings.Join(args, " "), cmd.CommandPath())
			continue
		}
		if cmd.Args != nil {
			if err := cmd.Args(cmd, cmd.Flags().Args()); err != nil {
				t.Errorf("tai %s: %v", strings.Join(args, " "), err)
			}
		}
	}
}
