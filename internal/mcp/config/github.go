package config

import (
	"fmt"
	"strings"

	"tai/internal/lazyre"
)

// GitHubRef is the error [Normalize] returns for a link to a GitHub
// repository: not a config, but something the GitHub resolver can turn into
// one. Ref and Path are set when the link points into the tree
// (github.com/o/r/tree/main/src/fetch); a ref with a slash in it cannot be
// told from a path, so the first segment is taken as the ref.
type GitHubRef struct {
	Owner string
	Repo  string // without .git
	Ref   string
	Path  string
}

func (g *GitHubRef) Error() string {
	return fmt.Sprintf("github.com/%s/%s is a repository, not a config: it needs the GitHub resolver", g.Owner, g.Repo)
}

var (
	ghOwner = lazyre.New(`^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$`)
	ghRepo  = lazyre.New(`^[A-Za-z0-9._-]{1,100}$`)
)

// notOwners are first path segments of github.com that are pages, not
// accounts.
var notOwners = map[string]bool{
	"about": true, "apps": true, "collections": true, "contact": true, "enterprise": true,
	"explore": true, "features": true, "issues": true, "login": true, "marketplace": true,
	"new": true, "notifications": true, "orgs": true, "organizations": true, "pricing": true,
	"pulls": true, "search": true, "settings": true, "site": true, "sponsors": true,
	"topics": true, "trending": true, "users": true,
}

// gitHubRef recognises a link to a GitHub repository, with or without a
// scheme or www., as an SSH or git remote, with .git or a tree/blob path
// after it; user info, the default ports and a trailing dot on the host
// are ignored. It returns nil, nil for anything not on github.com, and an
// error for a github.com address that is not a repository (an account,
// gist.github.com, api.github.com).
func gitHubRef(s string) (*GitHubRef, error) {
	rest := s
	if r, ok := cutPrefixFold(rest, "git@github.com:"); ok {
		rest = "github.com/" + r
	} else {
		for _, scheme := range []string{"https://", "http://", "ssh://", "git://", "git+https://", "git+ssh://"} {
			if r, ok := cutPrefixFold(rest, scheme); ok {
				rest = r
				break
			}
		}
	}
	host, path, _ := strings.Cut(rest, "/")
	switch host = gitHubHost(host); {
	case host == "github.com":
	case strings.HasSuffix(host, ".github.com"):
		return nil, fmt.Errorf("%s is not a GitHub repository: link one as github.com/OWNER/REPO", shown(host))
	default:
		return nil, nil
	}
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		path = path[:i]
	}
	var segs []string
	for _, p := range strings.Split(path, "/") {
		if p != "" {
			segs = append(segs, p)
		}
	}
	return repoFromPath(segs)
}

// gitHubHost reduces the host part of a link to the name to compare:
// lower case, without user info, www., a default port or a trailing dot.
func gitHubHost(host string) string {
	if i := strings.LastIndexByte(host, '@'); i >= 0 {
		host = host[i+1:]
	}
	host = strings.ToLower(host)
	for _, port := range []string{":443", ":80", ":22"} {
		host = strings.TrimSuffix(host, port)
	}
	host = strings.TrimSuffix(host, ".")
	return strings.TrimPrefix(host, "www.")
}

func repoFromPath(segs []string) (*GitHubRef, error) {
	if len(segs) == 0 || notOwners[strings.ToLower(segs[0])] || !ghOwner.MatchString(segs[0]) {
		return nil, fmt.Errorf("that github.com address is not a repository: link one as github.com/OWNER/REPO")
	}
	if len(segs) == 1 {
		return nil, fmt.Errorf("github.com/%s is an account, not a repository: link one of its repositories as github.com/%s/REPO", segs[0], segs[0])
	}
	repo := strings.TrimSuffix(segs[1], ".git")
	if !ghRepo.MatchString(repo) || repo == "." || repo == ".." {
		return nil, fmt.Errorf("github.com/%s/%s is not a repository address", segs[0], shown(segs[1]))
	}
	g := &GitHubRef{Owner: segs[0], Repo: repo}
	if len(segs) >= 4 && (segs[2] == "tree" || segs[2] == "blob") {
		g.Ref = segs[3]
		g.Path = strings.Join(segs[4:], "/")
	}
	return g, nil
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}
