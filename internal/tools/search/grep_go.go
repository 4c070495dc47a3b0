package search

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"regexp"
)

// binarySniff is how much of a file decides that it is binary: ripgrep's
// first read buffer.
const binarySniff = 64 << 10

// grepGo is the engine used without ripgrep: it walks the tree itself and
// matches with Go's regexp. It passes each file with hits to emit, in path
// order, until emit returns false.
func grepGo(ctx context.Context, q *query, emit func(fileHits) bool) error {
	if q.rootIsFile {
		hits, err := grepFile(q, q.root)
		if err != nil {
			return err
		}
		emit(fileHits{hits: hits})
		return nil
	}
	return walk(ctx, q.root, func(rel, abs string) error {
		if q.filter != nil && !q.filter.match(rel, false) {
			return nil
		}
		hits, err := grepFile(q, abs)
		if err != nil {
			return nil // unreadable files are skipped, as ripgrep does
		}
		if !emit(fileHits{rel: rel, hits: hits}) {
			return errStop
		}
		return nil
	})
}

// grepFile searches one file. A file with a NUL byte in its first
// binarySniff bytes is binary and has no hits; a NUL byte later ends the
// search at that line.
func grepFile(q *query, path string) ([]hit, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, binarySniff)
	head, _ := r.Peek(binarySniff)
	if bytes.IndexByte(head, 0) >= 0 {
		return nil, nil
	}
	if len(head) < binarySniff { // the whole file is in head: rule it out at once if possible
		if prefix, _ := q.re.LiteralPrefix(); prefix != "" && !bytes.Contains(head, []byte(prefix)) {
			return nil, nil
		}
		if q.whole != nil && !q.whole.Match(head) {
			return nil, nil
		}
	}
	return searchLines(r, q.re, q.context, q.filesOnly)
}

// searchLines returns the matching lines of r with up to context lines
// around each; with first set it stops at the first match.
func searchLines(r *bufio.Reader, re *regexp.Regexp, context int, first bool) ([]hit, error) {
	var hits []hit
	var before []hit // the last context lines not yet shown
	after := 0       // context lines still to show after a match
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if len(line) == 0 && errors.Is(err, io.EOF) {
			return hits, nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return hits, err
		}
		if bytes.IndexByte(line, 0) >= 0 {
			return hits, nil
		}
		text := string(bytes.TrimSuffix(line, []byte("\n")))
		switch {
		case re.MatchString(text):
			hits = append(append(hits, before...), hit{n: n, text: text, match: true})
			before, after = before[:0], context
			if first {
				return hits, nil
			}
		case after > 0:
			hits = append(hits, hit{n: n, text: text})
			after--
		case context > 0:
			if len(before) == context {
				before = append(before[:0], before[1:]...)
			}
			before = append(before, hit{n: n, text: text})
		}
	}
}
