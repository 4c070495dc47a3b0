package resolve

import (
	"context"
	"errors"
	"path"
	"strings"

	"tai/internal/lazyre"
	"tai/internal/mcp/config"
	"tai/internal/mcp/wire"
)

// Step is what one step of a pass saw: the file or folder it looked at and
// what it found there. Paths are inside the repository; "" is the root.
type Step struct {
	Path string
	Saw  string
}

func (s Step) String() string {
	where := s.Path
	if where == "" {
		where = "(root)"
	}
	return wire.Printable(where, 120) + ": " + s.Saw
}

// hints name the server a README should be about: the repository and its
// owner, the folder, and the npm package.
type hints struct {
	names []string
}

func (h *hints) add(name string) {
	if name = strings.ToLower(strings.TrimSpace(name)); name != "" && name != "." {
		h.names = append(h.names, name)
	}
}

// reader turns one file into entries, or says why it yields none.
type reader func(data []byte, h *hints) ([]config.Entry, string)

// files are the deterministic pass's steps, in order; README is matched
// by readmeName instead.
var files = []struct {
	name string
	read reader
}{
	{"mcp.json", fromConfigFile},
	{".mcp.json", fromConfigFile},
	{"server.json", fromServerJSON},
	{"package.json", fromPackageJSON},
}

var readmeName = lazyre.New(`(?i)^readme(\.(md|markdown|mdx|rst|txt))?$`)

// static is the deterministic pass: the linked folder first, then the
// root. It returns the first entries found with the path they came from,
// or none; the error is set only when the repository cannot be read at
// all (not found, private, rate limited).
func static(ctx context.Context, repo *Repo, dir string) ([]config.Entry, []Step, error) {
	var steps []Step
	dirs := []string{""}
	if dir != "" {
		dirs = []string{dir, ""}
	}
	for _, d := range dirs {
		items, err := repo.List(ctx, d)
		if errors.Is(err, ErrIsFile) {
			d = parent(d)
			if d == "" {
				continue // the root comes next anyway
			}
			items, err = repo.List(ctx, d)
		}
		switch {
		case errors.Is(err, ErrNotFound) && d != "":
			steps = append(steps, Step{d, "no such folder at this ref"})
			continue
		case err != nil:
			return nil, steps, err
		}
		entries, seen, err := inFolder(ctx, repo, d, items)
		steps = append(steps, seen...)
		if err != nil || len(entries) > 0 {
			return entries, steps, err
		}
	}
	return nil, steps, nil
}

// inFolder runs the steps over one folder's files.
func inFolder(ctx context.Context, repo *Repo, dir string, items []Item) ([]config.Entry, []Step, error) {
	present := map[string]Item{}
	readme := ""
	for _, it := range items {
		if it.Type == "file" {
			present[it.Name] = it
			if readme == "" && readmeName.MatchString(it.Name) {
				readme = it.Name
			}
		}
	}
	h := &hints{}
	h.add(repo.Owner)
	h.add(repo.Name)
	h.add(path.Base(dir))
	var absent []string
	var steps []Step
	try := func(name string, read reader) ([]config.Entry, error) {
		p := path.Join(dir, name)
		data, err := repo.Read(ctx, p)
		if err != nil {
			if errors.Is(err, ErrRateLimited) {
				return nil, err
			}
			steps = append(steps, Step{p, "unreadable: " + wire.Printable(err.Error(), 200)})
			return nil, nil
		}
		entries, saw := read(data, h)
		steps = append(steps, Step{p, saw})
		return entries, nil
	}
	for _, f := range files {
		if _, ok := present[f.name]; !ok {
			absent = append(absent, f.name)
			continue
		}
		if entries, err := try(f.name, f.read); err != nil || len(entries) > 0 {
			return entries, withAbsent(dir, absent, steps), err
		}
	}
	if readme == "" {
		absent = append(absent, "README")
		return nil, withAbsent(dir, absent, steps), nil
	}
	entries, err := try(readme, fromReadme)
	return entries, withAbsent(dir, absent, steps), err
}

// withAbsent puts one step naming the files a folder lacks first.
func withAbsent(dir string, absent []string, steps []Step) []Step {
	if len(absent) == 0 {
		return steps
	}
	return append([]Step{{dir, "no " + orList(absent)}}, steps...)
}

func orList(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

func parent(p string) string {
	if d := path.Dir(p); d != "." {
		return d
	}
	return ""
}
