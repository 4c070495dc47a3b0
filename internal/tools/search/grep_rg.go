package search

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// ripgrep finds the rg binary; tests replace it to force the Go engine.
var ripgrep = func() string {
	p, _ := exec.LookPath("rg")
	return p
}

// errRegexSyntax reports a pattern Go accepts and ripgrep does not; the
// caller falls back to the Go engine.
var errRegexSyntax = errors.New("ripgrep rejected the pattern")

// rgArgs makes ripgrep see the tree as the Go walker does: hidden files
// included, .git skipped, .gitignore files honoured inside and outside
// repositories, no global or .ignore/.rgignore files, paths sorted.
func rgArgs(q *query) []string {
	args := []string{"--json", "--no-config", "--hidden", "--no-require-git", "--no-ignore-global",
		"--no-ignore-dot", "--glob=!.git", "--sort=path"}
	if q.context > 0 {
		args = append(args, "--context="+strconv.Itoa(q.context))
	}
	if q.filesOnly {
		args = append(args, "--max-count=1")
	}
	args = append(args, "--regexp="+q.goPattern)
	if q.rootIsFile {
		args = append(args, "--", filepath.Base(q.root))
	}
	return args
}

// grepRipgrep runs rg and turns its JSON stream into fileHits. The glob
// filter is applied here rather than passed to rg, whose globs would
// override .gitignore.
func grepRipgrep(ctx context.Context, rg string, q *query, emit func(fileHits) bool) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, rg, rgArgs(q)...)
	cmd.Dir = q.root
	if q.rootIsFile {
		cmd.Dir = filepath.Dir(q.root)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	stopped, err := readEvents(bufio.NewReaderSize(out, 64<<10), q, emit)
	if stopped {
		cancel()
	}
	waitErr := cmd.Wait()
	switch {
	case err != nil:
		return err
	case stopped || waitErr == nil:
		return nil
	case strings.Contains(stderr.String(), "regex"):
		return errRegexSyntax
	}
	var exit *exec.ExitError
	if errors.As(waitErr, &exit) && exit.ExitCode() == 1 {
		return nil // no matches
	}
	if exit != nil && exit.ExitCode() == 2 {
		return nil // some files could not be read; the rest were searched
	}
	return fmt.Errorf("rg: %v: %s", waitErr, strings.TrimSpace(stderr.String()))
}

// rgEvent is the part of ripgrep's JSON messages grep uses.
type rgEvent struct {
	Type string `json:"type"`
	Data struct {
		Path       rgData `json:"path"`
		Lines      rgData `json:"lines"`
		LineNumber int    `json:"line_number"`
	} `json:"data"`
}

// rgData is text, or base64 bytes when it is not UTF-8.
type rgData struct {
	Text  *string `json:"text"`
	Bytes string  `json:"bytes"`
}

func (d rgData) String() string {
	if d.Text != nil {
		return *d.Text
	}
	b, _ := base64.StdEncoding.DecodeString(d.Bytes)
	return string(b)
}

// readEvents groups match and context events by file and emits each file
// at its end event. stopped reports that emit asked to stop.
func readEvents(r *bufio.Reader, q *query, emit func(fileHits) bool) (stopped bool, err error) {
	var cur fileHits
	for {
		line, rerr := r.ReadBytes('\n')
		if len(line) > 0 {
			var ev rgEvent
			if err := json.Unmarshal(line, &ev); err != nil {
				return false, fmt.Errorf("reading rg output: %w", err)
			}
			switch ev.Type {
			case "begin":
				cur = fileHits{rel: filepath.ToSlash(ev.Data.Path.String())}
			case "match", "context":
				text := strings.TrimSuffix(ev.Data.Lines.String(), "\n")
				cur.hits = append(cur.hits, hit{n: ev.Data.LineNumber, text: text, match: ev.Type == "match"})
			case "end":
				if q.rootIsFile {
					cur.rel = ""
				}
				if q.filter == nil || q.rootIsFile || q.filter.match(cur.rel, false) {
					if !emit(cur) {
						return true, nil
					}
				}
			}
		}
		if rerr != nil {
			return false, nil
		}
	}
}
