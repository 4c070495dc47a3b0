package resolve

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"tai/internal/mcp/wire"
	"tai/internal/redirect"
)

// DefaultAPI is the GitHub REST API that [GitHub] reads by default.
const DefaultAPI = "https://api.github.com"

// maxFile is the largest file the resolver reads: the contents API sends
// nothing inline above 1 MiB either.
const maxFile = 1 << 20

// GitHub reads repositories through the GitHub REST contents API.
type GitHub struct {
	// BaseURL is the API root; "" means DefaultAPI.
	BaseURL string
	// Token, when set, is sent as a bearer token (a GITHUB_TOKEN).
	Token string
	// Client makes the requests; nil means http.DefaultClient. Either way
	// redirects follow redirect.Check, so the token stays in the API's
	// origin.
	Client *http.Client
}

// Repo returns a reader of one repository at ref ("" for its default
// branch).
func (g *GitHub) Repo(owner, repo, ref string) *Repo {
	return &Repo{gh: g, Owner: owner, Name: repo, Ref: ref}
}

// Repo reads the files of one repository, and nothing else.
type Repo struct {
	gh          *GitHub
	Owner, Name string
	Ref         string
}

// Item is one entry of a directory listing.
type Item struct {
	Name string `json:"name"`
	Path string `json:"path"`
	Type string `json:"type"` // file, dir, symlink or submodule
	Size int64  `json:"size"`
}

// content is the contents API's answer for a file.
type content struct {
	Item
	Encoding string `json:"encoding"`
	Content  string `json:"content"`
}

// ErrIsFile is returned by [Repo.List] for a path that names a file.
var ErrIsFile = errors.New("a file, not a directory")

// List lists the directory dir ("" for the root).
func (r *Repo) List(ctx context.Context, dir string) ([]Item, error) {
	body, err := r.get(ctx, dir)
	if err != nil {
		return nil, err
	}
	if len(body) == 0 || body[0] != '[' {
		return nil, fmt.Errorf("%s: %w", r.where(dir), ErrIsFile)
	}
	return r.decodeList(dir, body)
}

// Read returns the contents of the file at path.
func (r *Repo) Read(ctx context.Context, path string) ([]byte, error) {
	items, data, err := r.Open(ctx, path)
	if err == nil && items != nil {
		err = fmt.Errorf("%s is a directory, not a file", r.where(path))
	}
	return data, err
}

// Open reads a path that may be a directory (items, never nil for one) or
// a file (its contents), with one request.
func (r *Repo) Open(ctx context.Context, path string) ([]Item, []byte, error) {
	body, err := r.get(ctx, path)
	if err != nil {
		return nil, nil, err
	}
	if len(body) > 0 && body[0] == '[' {
		items, err := r.decodeList(path, body)
		return items, nil, err
	}
	data, err := r.decodeFile(path, body)
	return nil, data, err
}

func (r *Repo) decodeList(dir string, body []byte) ([]Item, error) {
	items := []Item{}
	if err := json.Unmarshal(body, &items); err != nil {
		return nil, fmt.Errorf("%s: the GitHub API sent no directory listing: %w", r.where(dir), err)
	}
	return items, nil
}

func (r *Repo) decodeFile(path string, body []byte) ([]byte, error) {
	var c content
	if err := json.Unmarshal(body, &c); err != nil {
		return nil, fmt.Errorf("%s: the GitHub API sent no file: %w", r.where(path), err)
	}
	switch {
	case c.Type != "file":
		return nil, fmt.Errorf("%s is a %s, not a file", r.where(path), wire.Printable(c.Type, 20))
	case c.Size > maxFile || c.Encoding == "none":
		return nil, fmt.Errorf("%s is %d bytes, more than the resolver reads (1 MiB)", r.where(path), c.Size)
	case c.Encoding != "base64":
		return nil, fmt.Errorf("%s: unknown encoding %q", r.where(path), c.Encoding)
	}
	b, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(c.Content, "\n", ""))
	if err != nil {
		return nil, fmt.Errorf("%s: bad base64 content: %w", r.where(path), err)
	}
	return b, nil
}

// get fetches /repos/OWNER/REPO/contents/PATH.
func (r *Repo) get(ctx context.Context, path string) ([]byte, error) {
	u, err := r.contentsURL(path)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/vnd.github+json")
	req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	req.Header.Set("User-Agent", "tai")
	if r.gh.Token != "" {
		req.Header.Set("Authorization", "Bearer "+r.gh.Token)
	}
	resp, err := redirect.Client(r.gh.Client).Do(req)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", r.where(path), err)
	}
	defer resp.Body.Close()
	if err := statusError(resp, r, path); err != nil {
		return nil, err
	}
	// Base64 and the JSON around it take about 4/3 of the file.
	body, err := io.ReadAll(io.LimitReader(resp.Body, 2*maxFile))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", r.where(path), err)
	}
	return body, nil
}

func (r *Repo) contentsURL(path string) (string, error) {
	base := r.gh.BaseURL
	if base == "" {
		base = DefaultAPI
	}
	clean, err := CleanPath(path)
	if err != nil {
		return "", err
	}
	u := strings.TrimRight(base, "/") + "/repos/" + url.PathEscape(r.Owner) + "/" + url.PathEscape(r.Name) + "/contents"
	for _, seg := range strings.Split(clean, "/") {
		if seg != "" {
			u += "/" + url.PathEscape(seg)
		}
	}
	if r.Ref != "" {
		u += "?ref=" + url.QueryEscape(r.Ref)
	}
	return u, nil
}

// CleanPath checks a path inside a repository and returns it without
// leading or trailing slashes; "" is the root. Paths that could leave the
// repository (.., backslashes, control characters) are refused.
func CleanPath(p string) (string, error) {
	p = strings.Trim(p, "/")
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." || seg == "." || (seg == "" && p != "") {
			return "", fmt.Errorf("path %q is not a plain path inside the repository", p)
		}
	}
	for _, c := range p {
		if c < ' ' || c == 0x7f || c == '\\' {
			return "", fmt.Errorf("path %q is not a plain path inside the repository", p)
		}
	}
	return p, nil
}

// where names a path for errors and evidence: OWNER/REPO/PATH.
func (r *Repo) where(path string) string {
	if path = strings.Trim(path, "/"); path == "" {
		return r.Owner + "/" + r.Name
	}
	return r.Owner + "/" + r.Name + "/" + path
}
