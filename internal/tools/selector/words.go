package selector

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Words splits text into the terms the index matches on: identifiers are
// split at underscores, dashes, dots and case changes (listDirectory,
// HTTPRequest, get_file_contents), everything is lower-cased, stop words
// and one-letter words (but Chinese and Japanese ones, see isCJK) are
// dropped, and each word is reduced to its stem.
// The same function serves tool specs and queries, so both sides agree.
func Words(text string) []string {
	var out []string
	forEachWord(text, func(w string) {
		if kept(w) {
			out = append(out, Stem(w))
		}
	})
	return out
}

// kept reports whether Words keeps w, a word forEachWord gave: not a stop
// word, and more than one letter unless Chinese or Japanese.
func kept(w string) bool {
	r, n := utf8.DecodeRuneInString(w)
	return (n < len(w) || isCJK(r)) && !stopWords()[w]
}

// forEachWord calls fn with each lower-cased word of text. A word split at
// case changes is also given whole, so "JavaScript" matches javascript as
// well as script, and "GitHub" matches github. Chinese and Japanese text
// gives each letter and each two letters in a row (see isCJK).
//
// Every start of tai runs it over the whole native catalogue before its
// first model request, so ASCII, nearly all of that text, is classified
// by a table and only other characters are decoded and asked of package
// unicode; the words are the same either way (TestForEachWord_*).
func forEachWord(text string, fn func(string)) {
	start, run, parts := -1, -1, 0
	var prev rune
	cjk := -1 // where the previous letter began, when it was Chinese or Japanese
	// endRun ends the word at i, and the run of words it ends.
	endRun := func(i int) {
		if start >= 0 {
			fn(strings.ToLower(text[start:i]))
			parts++
			start = -1
		}
		if parts > 1 {
			fn(strings.ToLower(text[run:i]))
		}
		run, parts = -1, 0
		prev = 0
	}
	for i := 0; i < len(text); {
		r, size := rune(text[i]), 1
		var letterOrDigit, upper bool
		if r < utf8.RuneSelf {
			c := asciiClass[r]
			letterOrDigit, upper = c != 0, c == classUpper
		} else {
			r, size = utf8.DecodeRuneInString(text[i:])
			if isCJK(r) { // written without spaces: each letter and each two in a row are words
				endRun(i)
				fn(text[i : i+size])
				if cjk >= 0 {
					fn(text[cjk : i+size])
				}
				cjk = i
				i += size
				continue
			}
			letterOrDigit = unicode.IsLetter(r) || unicode.IsDigit(r)
			upper = letterOrDigit && unicode.IsUpper(r)
		}
		cjk = -1
		if !letterOrDigit {
			endRun(i)
			i += size
			continue
		}
		if start >= 0 && !upper && r < utf8.RuneSelf {
			// Inside a word, lower-case letters and digits only extend it.
			j := i + 1
			for j < len(text) && text[j] < utf8.RuneSelf && asciiClass[text[j]] == classWord {
				j++
			}
			prev, i = rune(text[j-1]), j
			continue
		}
		if start >= 0 && upper && caseBoundary(prev, r, text[i+size:]) {
			fn(strings.ToLower(text[start:i]))
			parts++
			start = -1
		}
		if start < 0 {
			start = i
		}
		if run < 0 {
			run = i
		}
		prev = r
		i += size
	}
	endRun(len(text))
}

// The classes of ASCII characters forEachWord tells apart: not part of a
// word (0), lower-case letters and digits, upper-case letters.
const (
	classWord = 1 + iota
	classUpper
)

var asciiClass = func() (t [utf8.RuneSelf]byte) {
	for c := range t {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			t[c] = classWord
		case c >= 'A' && c <= 'Z':
			t[c] = classUpper
		}
	}
	return t
}()

// isCJK reports whether r is a Chinese character or Japanese kana: text
// in those scripts has no spaces between words, so it is matched by each
// letter and each two letters in a row (堵, 今晚, 天気), as search engines
// without a dictionary do; a single letter is a word here, though a
// single Latin letter is not. Korean, written with spaces, splits as
// other scripts do.
func isCJK(r rune) bool {
	return r >= 0x3040 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r))
}

// caseBoundary reports whether a new word starts at r: a capital after a
// lower-case letter or digit (listDir), or the last capital of a run that
// a lower-case letter follows (HTTPRequest → HTTP, Request).
func caseBoundary(prev, r rune, rest string) bool {
	if !unicode.IsUpper(r) {
		return false
	}
	if unicode.IsLower(prev) || unicode.IsDigit(prev) {
		return true
	}
	if unicode.IsUpper(prev) {
		next, _ := utf8.DecodeRuneInString(rest)
		return unicode.IsLower(next)
	}
	return false
}

// Stem reduces an English word to a stem shared by its common inflections:
// plurals, -ing, -ed, -ion and a final e (create, creates, created,
// creating, creation → creat). It is deliberately light: a wrong merge
// costs more than a missed one when words are this short.
func Stem(w string) string {
	if len(w) <= 3 || !isASCIILetters(w) {
		return w
	}
	w = plural(w)
	switch {
	case strings.HasSuffix(w, "ied") && len(w) >= 5:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ing") && len(w) >= 6:
		w = undouble(w[:len(w)-3])
	case strings.HasSuffix(w, "ed") && len(w) >= 5:
		w = undouble(w[:len(w)-2])
	case (strings.HasSuffix(w, "tion") || strings.HasSuffix(w, "sion")) && len(w) >= 8:
		w = w[:len(w)-3] // creation → creat, but notion and version stay
	}
	if strings.HasSuffix(w, "e") && len(w) >= 4 {
		w = w[:len(w)-1]
	}
	return w
}

func plural(w string) string {
	switch {
	case strings.HasSuffix(w, "ies") && len(w) >= 5:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "xes"),
		strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") &&
		!strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:len(w)-1]
	}
	return w
}

// undouble turns "runn" (from running) into "run", keeping the doubled
// endings that belong to a word (add, install, process, diff).
func undouble(w string) string {
	n := len(w)
	if n >= 4 && w[n-1] == w[n-2] && !strings.ContainsRune("lsfz", rune(w[n-1])) && !isVowel(w[n-1]) {
		return w[:n-1]
	}
	return w
}

func isVowel(c byte) bool { return strings.IndexByte("aeiou", c) >= 0 }

func isASCIILetters(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}

// stopWords carry no meaning for choosing a tool: function words, and the
// politeness and filler of typed requests. Built on first use, not at
// every start of tai.
var stopWords = sync.OnceValue(func() map[string]bool {
	return setOf(`a an the and or but if then else of to in on at by for with from into onto
	out over under up down about as is are was were be been being am do does did done doing
	have has had having it its it's this that these those there here what which who whom whose
	when where why how all any each every some such no not nor only own same so than too very
	can could will would shall should may might must i me my we our you your he she they them
	their his her us let lets please pls just also now want need like got some thing things
	via using use used e g eg ie etc whether while within without across per one two`)
})

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}
