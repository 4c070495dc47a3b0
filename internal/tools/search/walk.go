package search

import (
	"bufio"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// errStop ends a walk early without an error.
var errStop = errors.New("stop")

// rules are the patterns of one ignore file, relative to its directory.
type rules struct {
	dir  string // absolute
	pats []pattern
}

// loadRules reads an ignore file; a missing or unreadable one has no rules.
func loadRules(dir, file string) *rules {
	f, err := os.Open(file)
	if err != nil {
		return nil
	}
	defer f.Close()
	r := &rules{dir: dir}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if p, ok := parsePattern(sc.Text()); ok {
			r.pats = append(r.pats, p)
		}
	}
	return r
}

// ignores holds the rules in force, outermost first; a later match wins.
type ignores []*rules

// ignored applies git's rule: the last pattern that matches decides.
func (ig ignores) ignored(abs string, isDir bool) bool {
	verdict := false
	for _, r := range ig {
		rel, err := filepath.Rel(r.dir, abs)
		if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			continue
		}
		rel = filepath.ToSlash(rel)
		for _, p := range r.pats {
			if p.match(rel, isDir) {
				verdict = !p.negate
			}
		}
	}
	return verdict
}

// outerRules collects the ignore rules that reach root from above, as git
// and ripgrep see them: the .gitignore files of the directories above it
// up to the repository root (the first with a .git), or to the file system
// root outside a repository, and the repository's .git/info/exclude.
func outerRules(root string) ignores {
	var chain ignores
	repo := ""
	if exists(filepath.Join(root, ".git")) {
		repo = root
	} else {
		for d := filepath.Dir(root); ; d = filepath.Dir(d) {
			if r := loadRules(d, filepath.Join(d, ".gitignore")); r != nil {
				chain = append(ignores{r}, chain...)
			}
			if exists(filepath.Join(d, ".git")) {
				repo = d
				break
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	if repo != "" {
		if r := loadRules(repo, filepath.Join(repo, ".git", "info", "exclude")); r != nil {
			chain = append(ignores{r}, chain...)
		}
	}
	return chain
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// walk visits the regular files under root in path order (depth first,
// names sorted bytewise), skipping .git, symbolic links, and whatever the
// .gitignore files in force ignore. rel is slash separated and relative to
// root. visit may return errStop.
func walk(ctx context.Context, root string, visit func(rel, abs string) error) error {
	err := walkDir(ctx, root, "", outerRules(root), visit)
	if errors.Is(err, errStop) {
		return nil
	}
	return err
}

func walkDir(ctx context.Context, abs, rel string, ig ignores, visit func(rel, abs string) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		return nil // unreadable directories are skipped, as ripgrep does
	}
	if r := loadRules(abs, filepath.Join(abs, ".gitignore")); r != nil {
		ig = append(ig[:len(ig):len(ig)], r)
	}
	for _, e := range entries {
		name := e.Name()
		childAbs, childRel := filepath.Join(abs, name), name
		if rel != "" {
			childRel = rel + "/" + name
		}
		t := e.Type()
		switch {
		case name == ".git", t&os.ModeSymlink != 0:
			continue
		case t.IsDir():
			if ig.ignored(childAbs, true) {
				continue
			}
			if err := walkDir(ctx, childAbs, childRel, ig, visit); err != nil {
				return err
			}
		case t.IsRegular():
			if ig.ignored(childAbs, false) {
				continue
			}
			if err := visit(childRel, childAbs); err != nil {
				return err
			}
		}
	}
	return nil
}
