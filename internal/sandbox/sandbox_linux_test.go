package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"tai/internal/egress"
)

func TestMain(m *testing.M) {
	if code, ok := Main(os.Args[1:]); ok {
		os.Exit(code)
	}
	if target := os.Getenv("SANDBOX_TEST_DIAL"); target != "" { // TestSandbox_Network's probe, run confined
		network, addr, _ := strings.Cut(target, ":")
		c, err := net.Dial(network, "127.0.0.1:"+addr)
		if err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		c.Close()
		os.Exit(0)
	}
	if u := os.Getenv("SANDBOX_TEST_GET"); u != "" { // TestSandbox_Proxy's client, run confined
		resp, err := http.Get(u) // through HTTP_PROXY, as most clients go
		if err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		b, _ := io.ReadAll(resp.Body)
		os.Stdout.Write(b)
		if resp.StatusCode != 200 {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// world is a person's files in a temporary directory: a home with a key,
// a workspace with a git directory, and a place outside both.
type world struct {
	home, key, work, outside string
	p                        Policy
}

func newWorld(t *testing.T) world {
	t.Helper()
	if st := Probe(); !st.Landlock || st.ABI < 6 || !st.Namespaces {
		t.Fatalf("this machine's kernel should offer Landlock ABI 6 and user namespaces: %+v", st)
	}
	root := t.TempDir()
	w := world{home: filepath.Join(root, "home"), work: filepath.Join(root, "home", "project"), outside: filepath.Join(root, "elsewhere")}
	w.key = filepath.Join(w.home, ".ssh", "id_rsa")
	for _, d := range []string{filepath.Dir(w.key), filepath.Join(w.work, ".git", "hooks"), w.outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for path, body := range map[string]string{w.key: "PRIVATE KEY", filepath.Join(w.home, ".bashrc"): "PS1=x",
		filepath.Join(w.work, "main.go"): "package main", filepath.Join(w.work, ".git", "config"): "[core]",
		filepath.Join(w.outside, "notes"): "notes"} {
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w.p = Policy{Mode: WorkspaceWrite, Write: []string{w.work}, Protected: Protected(w.home, filepath.Join(root, "taihome")),
		Keep: []string{filepath.Join(w.work, ".git", "hooks"), filepath.Join(w.work, ".git", "config")}}
	return w
}

// run runs line by /bin/sh confined by p, in dir, and returns its output
// and whether it succeeded.
func run(t *testing.T, p Policy, dir, line string) (string, bool) {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", line)
	cmd.Dir = dir
	if err := Wrap(cmd, p); err != nil {
		t.Fatal(err)
	}
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == helperFailed {
		t.Fatalf("the helper refused: %s", out)
	}
	return string(out), err == nil
}

// escapes are what a confined command tries; ok is whether it may.
var escapes = []struct {
	name, line string
	ok         bool
	git        bool // needs the namespace's read-only .git binds
}{
	// Written with the world's paths as words: KEY, KEYDIR, HOME, OUTSIDE,
	// and TAI, the pid of this test (the process that started the command).
	{"reads the workspace", "cat main.go", true, false},
	{"reads the home outside the protected paths", "cat HOME/.bashrc", true, false},
	{"reads elsewhere", "cat OUTSIDE/notes", true, false},
	{"writes and renames in the workspace", "echo x > new.txt && mkdir -p a/b && mv new.txt a/b/ && cat a/b/new.txt", true, false},
	{"never reads a protected key", "cat KEY", false, false},
	{"never lists what a protected folder holds", "ls -A KEYDIR | grep id_rsa", false, false},
	{"never deletes a protected path", "rm -rf KEYDIR", false, false},
	{"never writes outside", "echo x > OUTSIDE/notes", false, false},
	{"never writes the home (.profile, LD_PRELOAD for later)", "echo 'export LD_PRELOAD=/x.so' >> HOME/.profile", false, false},
	{"never adds a git hook", "echo 'rm -rf ~' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit", false, true},
	{"never changes .git/config", "echo '[core] fsmonitor=evil' >> .git/config", false, true},
	{"a symlink out of the workspace does not reach the key", "ln -s KEY k && cat k", false, false},
	{"a hard link does not bring the key in", "ln KEY k2", false, false},
	{"/proc/self/root does not reach the key", "cat /proc/self/rootKEY", false, false},
	{"no new user namespace from inside", "unshare -U true", false, false},
	{"a background child is confined too", "(cat KEY > stolen.txt) & wait; test -s stolen.txt", false, false},
	{"no signal to tai", "kill -0 TAI", false, false},
	// The helper's own capabilities in its namespace (to mount) are gone
	// before the command starts: none effective, permitted, ambient or in
	// the bounding set.
	{"holds no capability", "! grep -E '^Cap(Prm|Eff|Amb|Bnd):[[:space:]]*0*[1-9a-f]' /proc/self/status", true, true},
}

func TestSandbox_WorkspaceWrite(t *testing.T) { testEscapes(t, false) }

// Where tai cannot make a user namespace, Landlock's rules go around the
// protected paths instead: every escape still fails but the .git ones,
// which that fallback says it does not stop.
func TestSandbox_WithoutNamespaces(t *testing.T) {
	withoutNamespaces = true
	defer func() { withoutNamespaces = false }()
	testEscapes(t, true)
}

// Where the kernel has no Landlock but tai can make namespaces, those
// confine alone: every mount read-only but the writable directories, the
// protected paths masked, a network of its own, and the seccomp filter
// keeping signals from tai. Every escape fails as with Landlock.
func TestSandbox_WithoutLandlock(t *testing.T) {
	withoutLandlock = true
	defer func() { withoutLandlock = false }()
	testEscapes(t, false)
	testProxy(t)
}

func testEscapes(t *testing.T, fallback bool) {
	w := newWorld(t)
	r := strings.NewReplacer("KEYDIR", filepath.Dir(w.key), "KEY", w.key, "HOME", w.home, "OUTSIDE", w.outside, "TAI", strconv.Itoa(os.Getpid()))
	for _, tc := range escapes {
		if fallback && tc.git {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			out, ok := run(t, w.p, w.work, r.Replace(tc.line))
			if ok != tc.ok {
				t.Fatalf("succeeded=%v, want %v; output:\n%s", ok, tc.ok, out)
			}
			if strings.Contains(out, "PRIVATE KEY") {
				t.Fatalf("the key leaked:\n%s", out)
			}
		})
	}
	if b, err := os.ReadFile(w.key); err != nil || string(b) != "PRIVATE KEY" {
		t.Errorf("the key is gone or changed: %q %v", b, err)
	}
	if b, _ := os.ReadFile(filepath.Join(w.work, ".git", "config")); !fallback && string(b) != "[core]" {
		t.Errorf(".git/config changed: %q", b)
	}
}

// A person is rarely root: a process whose uid is not 0 loses its
// capabilities when it starts a program, which once left the helper
// unable to mount anything, so that no command ran at all. Run as root
// (as CI does), the escapes run again as another user.
func TestSandbox_AsAnotherUser(t *testing.T) {
	if os.Getuid() != 0 {
		testEscapes(t, false) // this is the other user
		testProxy(t)
		return
	}
	dir, err := os.MkdirTemp("", "tai-sandbox-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "sandbox.test")
	b, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exe, b, 0o755); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o1777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(tmp, 0o1777); err != nil { // past the umask
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run", "^TestSandbox_AsAnotherUser$", "-test.v")
	cmd.Dir = tmp
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "TMPDIR=" + tmp, "HOME=" + tmp}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestSandbox_AsAnotherUser") {
		t.Fatalf("as uid 65534: %v\n%s", err, out)
	}
}

func TestSandbox_ReadOnlyWritesOnlyItsTemp(t *testing.T) {
	w := newWorld(t)
	tmp := t.TempDir()
	p := Workspace(ReadOnly, []string{w.work}, w.home, "", tmp)
	if out, ok := run(t, p, w.work, "cat main.go && echo x > "+filepath.Join(tmp, "scratch")); !ok {
		t.Fatalf("read-only could not read or use its temporary directory:\n%s", out)
	}
	if out, ok := run(t, p, w.work, "echo x > new.txt"); ok {
		t.Fatalf("read-only wrote the workspace:\n%s", out)
	}
}

// The network is off: no TCP connection (to this machine either), no UDP
// socket at all; with Network set, both work.
func TestSandbox_Network(t *testing.T) {
	w := newWorld(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("hello\n"))
			c.Close()
		}
	}()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	tcp := "SANDBOX_TEST_DIAL=tcp:" + port + " " + os.Args[0]
	udp := "SANDBOX_TEST_DIAL=udp:9 " + os.Args[0]
	for _, network := range []bool{false, true} {
		p := w.p
		p.Network = network
		if out, ok := run(t, p, w.work, tcp); ok != network {
			t.Errorf("network %v: TCP connect succeeded=%v:\n%s", network, ok, out)
		}
		if out, ok := run(t, p, w.work, udp); ok != network {
			t.Errorf("network %v: a UDP socket succeeded=%v:\n%s", network, ok, out)
		}
	}
}

// A helper told it runs in a namespace of its own when it does not (the
// namespaces were lost on the way) refuses, and mounts nothing on the
// machine.
func TestSandbox_NeverMountsOnTheMachine(t *testing.T) {
	w := newWorld(t)
	b, _ := json.Marshal(w.p)
	cmd := exec.Command("/proc/self/exe", Arg, string(b), "/bin/true", "true")
	cmd.Env = append(os.Environ(), nsEnv+"=1")
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != helperFailed || !strings.Contains(string(out), "nothing was mounted") {
		t.Fatalf("%v: %s", err, out)
	}
	mounts, _ := os.ReadFile("/proc/self/mountinfo")
	if strings.Contains(string(mounts), w.home) {
		t.Fatalf("a mask reached the machine's mounts:\n%s", mounts)
	}
}

// With a proxy, a command has a network of its own: one host the proxy
// lets through is reached through it, another is refused there, the
// machine's own loopback is out of reach.
func TestSandbox_Proxy(t *testing.T) { testProxy(t) }

func testProxy(t *testing.T) {
	w := newWorld(t)
	srv := &http.Server{Handler: http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) { fmt.Fprint(rw, "hello from "+r.Host) })}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	defer srv.Close()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	var asked []string
	reach := func(_ context.Context, hostport string) (bool, error) {
		asked = append(asked, hostport)
		if hostport == "allowed.test:"+port {
			return true, nil
		}
		return false, fmt.Errorf("%s is not granted", hostport)
	}
	lookup := func(context.Context, string) ([]netip.Addr, error) {
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
	}
	get := func(url string) (string, bool) {
		t.Helper()
		px, err := egress.Start(reach, egress.Options{Lookup: lookup})
		if err != nil {
			t.Fatal(err)
		}
		defer px.Close()
		p := w.p
		p.Proxy = px.Helper()
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), "SANDBOX_TEST_GET="+url)
		cmd.Dir = w.work
		if err := Wrap(cmd, p); err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		px.Started()
		err = cmd.Wait()
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == helperFailed {
			t.Fatalf("the helper refused: %s", out.String())
		}
		return out.String(), err == nil
	}
	if out, ok := get("http://allowed.test:" + port + "/"); !ok || out != "hello from allowed.test:"+port {
		t.Errorf("the granted host: ok=%v %q", ok, out)
	}
	if out, ok := get("http://other.test:" + port + "/"); ok || strings.Contains(out, "hello") {
		t.Errorf("another host went through: %q", out)
	}
	if out, ok := get("http://127.0.0.1:" + port + "/"); ok || strings.Contains(out, "hello") {
		t.Errorf("the machine's loopback was reached: %q", out)
	}
	if want := []string{"allowed.test:" + port, "other.test:" + port}; strings.Join(asked, " ") != strings.Join(want, " ") {
		t.Errorf("asked %v, want %v", asked, want)
	}
}
