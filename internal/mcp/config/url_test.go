package config

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNormalize_GitHubLinksGoToTheResolver(t *testing.T) {
	tests := []struct {
		in   string
		want GitHubRef
	}{
		{"https://github.com/modelcontextprotocol/servers", GitHubRef{Owner: "modelcontextprotocol", Repo: "servers"}},
		{"github.com/upstash/context7", GitHubRef{Owner: "upstash", Repo: "context7"}},
		{"http://www.github.com/upstash/context7/", GitHubRef{Owner: "upstash", Repo: "context7"}},
		{"HTTPS://GitHub.com/Owner/Repo.git", GitHubRef{Owner: "Owner", Repo: "Repo"}},
		{"git@github.com:github/github-mcp-server.git", GitHubRef{Owner: "github", Repo: "github-mcp-server"}},
		{"https://github.com/modelcontextprotocol/servers/tree/main/src/fetch",
			GitHubRef{Owner: "modelcontextprotocol", Repo: "servers", Ref: "main", Path: "src/fetch"}},
		{"https://github.com/o/r/blob/v1.2.0/README.md#install", GitHubRef{Owner: "o", Repo: "r", Ref: "v1.2.0", Path: "README.md"}},
		{"https://github.com/o/r?tab=readme-ov-file", GitHubRef{Owner: "o", Repo: "r"}},
		{"https://github.com/o/r/issues/12", GitHubRef{Owner: "o", Repo: "r"}},
		{"  https://github.com/o/r  \n", GitHubRef{Owner: "o", Repo: "r"}},
		{"https://github.com:443/o/r", GitHubRef{Owner: "o", Repo: "r"}},
		{"https://someone@github.com/o/r.git", GitHubRef{Owner: "o", Repo: "r"}},
		{"https://github.com./o/r", GitHubRef{Owner: "o", Repo: "r"}},
		{"ssh://git@github.com/o/r.git", GitHubRef{Owner: "o", Repo: "r"}},
		{"git+https://github.com/o/r.git", GitHubRef{Owner: "o", Repo: "r"}},
		{"git://github.com/o/r.git", GitHubRef{Owner: "o", Repo: "r"}},
		{"https://github.com/o/r.git/tree/main/src/x", GitHubRef{Owner: "o", Repo: "r", Ref: "main", Path: "src/x"}},
		{"https://github.com/o/r/tree/main/", GitHubRef{Owner: "o", Repo: "r", Ref: "main"}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := Normalize(tt.in, Options{})
			var ref *GitHubRef
			if !errors.As(err, &ref) || got != nil {
				t.Fatalf("got %v, %v; want a *GitHubRef", got, err)
			}
			if diff := cmp.Diff(tt.want, *ref); diff != "" {
				t.Errorf("ref (-want +got):\n%s", diff)
			}
		})
	}
}

// TestNormalize_GitHubNonRepositories: github.com addresses that are not a
// repository are refused, never sent to the resolver nor dialled.
func TestNormalize_GitHubNonRepositories(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://github.com/modelcontextprotocol", "github.com/modelcontextprotocol is an account, not a repository: link one of its repositories as github.com/modelcontextprotocol/REPO"},
		{"https://gist.github.com/someone/0123abcd", "gist.github.com is not a GitHub repository: link one as github.com/OWNER/REPO"},
		{"https://api.github.com/repos/o/r", "api.github.com is not a GitHub repository: link one as github.com/OWNER/REPO"},
		{"https://github.com/", "that github.com address is not a repository: link one as github.com/OWNER/REPO"},
		{"https://github.com/topics/mcp", "that github.com address is not a repository: link one as github.com/OWNER/REPO"},
		{"https://github.com/orgs/github/repositories", "that github.com address is not a repository: link one as github.com/OWNER/REPO"},
		{"https://github.com/o/..", "github.com/o/.. is not a repository address"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := Normalize(tt.in, Options{})
			var ref *GitHubRef
			if err == nil || errors.As(err, &ref) || got != nil {
				t.Fatalf("got %v, %v; want a plain error", got, err)
			}
			if err.Error() != tt.want {
				t.Errorf("err = %s\nwant  %s", err, tt.want)
			}
		})
	}
}

// TestNormalize_NearGitHubIsNotGitHub: hosts that only resemble GitHub are
// ordinary server addresses.
func TestNormalize_NearGitHubIsNotGitHub(t *testing.T) {
	for in, name := range map[string]string{
		"https://api.githubcopilot.com/mcp/":    "githubcopilot",
		"https://notgithub.com/o/r":             "notgithub",
		"https://github.company.example/mcp":    "github",
		"https://mcp.figma.com/mcp":             "figma",
		"https://www.example.co.uk/mcp":         "example",
		"http://localhost:3000/mcp":             "localhost-3000",
		"http://127.0.0.1/mcp":                  "localhost",
		"https://10.1.2.3:8443/mcp":             "10.1.2.3",
		"https://[2001:db8::1]/mcp":             "2001_db8_1",
		"https://mcp.context7.com/mcp?x=1#frag": "context7",
		"https://raw.githubusercontent.com/o/r": "raw",
		"https://github.com.example.org/o/r":    "github",
	} {
		got, err := Normalize(in, Options{})
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		want := []Entry{{
			Name: name, Transport: HTTP, URL: in, Source: SourceURL,
			Notes: []string{"name " + name + " derived from the host; choose another with --name"},
		}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", in, diff)
		}
	}
}

func TestNormalize_URLWithName(t *testing.T) {
	got, err := Normalize("https://mcp.context7.com/mcp", Options{Name: "docs"})
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{{Name: "docs", Transport: HTTP, URL: "https://mcp.context7.com/mcp", Source: SourceURL}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestNormalize_StoredName(t *testing.T) {
	stored := func(name string) bool { return name == "filesystem" }
	got, err := Normalize("filesystem", Options{Stored: stored})
	var ref *StoredRef
	if !errors.As(err, &ref) || ref.Name != "filesystem" || got != nil {
		t.Fatalf("got %v, %v; want *StoredRef{filesystem}", got, err)
	}
	if _, err := Normalize("memory", Options{Stored: stored}); err == nil || errors.As(err, &ref) {
		t.Errorf("an unknown name: err = %v, want a plain error", err)
	}
}

func TestNormalize_OneLineTOML(t *testing.T) {
	got, err := Normalize(`mcp_servers.x.command="srv"`, Options{})
	want := []Entry{{Name: "x", Transport: Stdio, Command: "srv", Source: SourceTOML}}
	if err != nil || !cmp.Equal(want, got) {
		t.Errorf("got %+v, %v", got, err)
	}
	if _, err := Normalize("github.com/o/r?tab=x=y", Options{}); err == nil || err.Error() != (&GitHubRef{Owner: "o", Repo: "r"}).Error() {
		t.Errorf("a GitHub link with = in its query: %v", err)
	}
}
