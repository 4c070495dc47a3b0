// Package githubtest is a fake GitHub REST API for tests. It answers the
// contents endpoint (GET /repos/OWNER/REPO/contents/PATH) for fixture
// repositories kept as directories OWNER/REPO/… of an fs.FS, in the shapes
// api.github.com sends: base64 file bodies broken every 60 characters,
// directory listings, a 404 for a missing path or a private repository,
// and a 403 with the rate-limit headers for a limited one.
package githubtest

import (
	"crypto/sha1"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ResetAt is the X-RateLimit-Reset a rate-limited repository reports.
var ResetAt = time.Date(2030, 1, 2, 15, 4, 0, 0, time.UTC)

// API is the fake, an http.Handler.
type API struct {
	// Files holds the repositories: OWNER/REPO/PATH.
	Files fs.FS
	// Private lists "OWNER/REPO"s answered 404 throughout, as GitHub
	// answers a private repository without a token that can see it.
	Private map[string]bool
	// RateLimited lists "OWNER/REPO"s answered 403 with
	// X-RateLimit-Remaining: 0.
	RateLimited map[string]bool

	mu       sync.Mutex
	requests []Request
}

// Request is one request the fake received.
type Request struct {
	Repo          string // OWNER/REPO
	Path          string // inside the repository, "" for the root
	Ref           string
	Authorization string
}

// Requests returns what the fake received, in order.
func (a *API) Requests() []Request {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]Request(nil), a.requests...)
}

func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	parts := strings.SplitN(strings.TrimPrefix(r.URL.Path, "/"), "/", 5)
	if r.Method != http.MethodGet || len(parts) < 4 || parts[0] != "repos" || parts[3] != "contents" {
		notFound(w)
		return
	}
	req := Request{Repo: parts[1] + "/" + parts[2], Ref: r.URL.Query().Get("ref"), Authorization: r.Header.Get("Authorization")}
	if len(parts) == 5 {
		req.Path = strings.Trim(parts[4], "/")
	}
	a.mu.Lock()
	a.requests = append(a.requests, req)
	a.mu.Unlock()
	base := "http://" + r.Host
	switch {
	case a.RateLimited[req.Repo]:
		rateLimited(w)
	case a.Private[req.Repo] || !fs.ValidPath(path.Join(req.Repo, req.Path)):
		notFound(w)
	default:
		a.serve(w, base, req)
	}
}

func (a *API) serve(w http.ResponseWriter, base string, req Request) {
	name := path.Join(req.Repo, req.Path)
	fi, err := fs.Stat(a.Files, name)
	if err != nil {
		notFound(w)
		return
	}
	w.Header().Set("X-RateLimit-Limit", "60")
	w.Header().Set("X-RateLimit-Remaining", "59")
	if !fi.IsDir() {
		b, err := fs.ReadFile(a.Files, name)
		if err != nil {
			notFound(w)
			return
		}
		writeJSON(w, http.StatusOK, fileObject(base, req, b))
		return
	}
	entries, err := fs.ReadDir(a.Files, name)
	if err != nil {
		notFound(w)
		return
	}
	list := []map[string]any{}
	for _, e := range entries {
		p := path.Join(req.Path, e.Name())
		var size int64
		kind := "dir"
		if !e.IsDir() {
			kind = "file"
			if info, err := e.Info(); err == nil {
				size = info.Size()
			}
		}
		list = append(list, item(base, req, p, kind, size, ""))
	}
	writeJSON(w, http.StatusOK, list)
}

// fileObject is the contents API's answer for a file.
func fileObject(base string, req Request, b []byte) map[string]any {
	it := item(base, req, req.Path, "file", int64(len(b)), blobSHA(b))
	enc := base64.StdEncoding.EncodeToString(b)
	var sb strings.Builder
	for len(enc) > 60 {
		sb.WriteString(enc[:60] + "\n")
		enc = enc[60:]
	}
	sb.WriteString(enc + "\n")
	it["encoding"], it["content"] = "base64", sb.String()
	return it
}

func item(base string, req Request, p, kind string, size int64, sha string) map[string]any {
	ref := req.Ref
	if ref == "" {
		ref = "main"
	}
	self := fmt.Sprintf("%s/repos/%s/contents/%s?ref=%s", base, req.Repo, p, ref)
	html := fmt.Sprintf("https://github.com/%s/%s/%s/%s", req.Repo, map[string]string{"file": "blob", "dir": "tree"}[kind], ref, p)
	git := fmt.Sprintf("%s/repos/%s/git/%ss/%s", base, req.Repo, map[string]string{"file": "blob", "dir": "tree"}[kind], sha)
	var download any
	if kind == "file" {
		download = fmt.Sprintf("https://raw.githubusercontent.com/%s/%s/%s", req.Repo, ref, p)
	}
	return map[string]any{"name": path.Base(p), "path": p, "sha": sha, "size": size, "type": kind,
		"url": self, "html_url": html, "git_url": git, "download_url": download,
		"_links": map[string]string{"self": self, "git": git, "html": html}}
}

// blobSHA is the git object id of a file with contents b.
func blobSHA(b []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(b))
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

func notFound(w http.ResponseWriter) {
	writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found",
		"documentation_url": "https://docs.github.com/rest/repos/contents#get-repository-content", "status": "404"})
}

func rateLimited(w http.ResponseWriter) {
	h := w.Header()
	h.Set("X-RateLimit-Limit", "60")
	h.Set("X-RateLimit-Remaining", "0")
	h.Set("X-RateLimit-Used", "60")
	h.Set("X-RateLimit-Reset", strconv.FormatInt(ResetAt.Unix(), 10))
	h.Set("X-RateLimit-Resource", "core")
	writeJSON(w, http.StatusForbidden, map[string]string{
		"message":           "API rate limit exceeded for 203.0.113.7. (But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation for more details.)",
		"documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
