package sandbox

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"tai/internal/egress"
)

// The sandbox's cost (docs/benchmarks.md, "The sandbox"): starting
// /bin/true, and running a small real test suite (go test of two of
// tai's packages, build cache warm), unconfined and confined as a
// workspace-write shell command is: with the network simply off, and
// with a network of its own leading to an egress proxy (as the shell
// runs commands where it can).
func BenchmarkStart(b *testing.B) {
	home, _ := os.UserHomeDir()
	p := Workspace(WorkspaceWrite, []string{b.TempDir()}, home, filepath.Join(home, ".local", "share", "tai"), os.TempDir())
	for _, how := range []string{"unconfined", "confined", "confined-proxy"} {
		b.Run(how+"/true", func(b *testing.B) {
			for b.Loop() {
				cmd := exec.Command("/bin/true")
				var px *egress.Proxy
				if how != "unconfined" {
					q := p
					if how == "confined-proxy" {
						var err error
						if px, err = egress.Start(func(context.Context, string) (bool, error) { return false, nil }, egress.Options{}); err != nil {
							b.Fatal(err)
						}
						q.Proxy = px.Helper()
					}
					if err := Wrap(cmd, q); err != nil {
						b.Fatal(err)
					}
				}
				err := cmd.Start()
				if px != nil {
					px.Started()
				}
				if err == nil {
					err = cmd.Wait()
				}
				if px != nil {
					px.Close()
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkTestSuite(b *testing.B) {
	_, file, _, _ := runtime.Caller(0)
	repo := filepath.Join(filepath.Dir(file), "..", "..")
	home, _ := os.UserHomeDir()
	p := Workspace(WorkspaceWrite, []string{repo}, home, filepath.Join(home, ".local", "share", "tai"), os.TempDir())
	for _, confined := range []bool{false, true} {
		name := map[bool]string{false: "unconfined", true: "confined"}[confined]
		b.Run(name+"/go-test", func(b *testing.B) {
			for b.Loop() {
				cmd := exec.Command("go", "test", "-count=1", "./internal/lazyre", "./internal/textdiff", "./internal/mcp/config")
				cmd.Dir = repo
				if confined {
					if err := Wrap(cmd, p); err != nil {
						b.Fatal(err)
					}
				}
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%v\n%s", err, out)
				}
			}
		})
	}
}
