package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"tai/internal/llm"
	"tai/internal/llm/llmtest"
)

// The test binary doubles as fakellm when asked, as os/exec's tests do.
func TestMain(m *testing.M) {
	if os.Getenv("FAKELLM_TEST_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestFakellm_ServesScriptInAnotherProcess(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "script.json")
	log := filepath.Join(dir, "requests.jsonl")
	os.WriteFile(script, []byte(`{"rules":[{"turns":[{"text":["echo: ","{{user}}"]}]}]}`), 0o600)

	cmd := exec.Command(os.Args[0], "-script", script, "-requests", log)
	cmd.Env = append(os.Environ(), "FAKELLM_TEST_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the URL: %v (stderr: %s)", err, stderr.String())
	}
	root := strings.TrimSpace(line)
	if !strings.HasPrefix(root, "http://127.0.0.1:") {
		t.Fatalf("first line %q, want the root URL", root)
	}

	for i, p := range []string{"openai", "anthropic"} {
		base := root
		if p == "openai" {
			base += "/v1"
		}
		c, err := llm.New(llm.Config{Provider: p, Model: "m", BaseURL: base, APIKey: "k"})
		if err != nil {
			t.Fatal(err)
		}
		resp, err := c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "turn " + p}}})
		if err != nil || resp.Message.Content != "echo: turn "+p {
			t.Fatalf("%s: %q, %v", p, resp.Message.Content, err)
		}
		data, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		var r llmtest.Request
		if len(lines) != i+1 || json.Unmarshal([]byte(lines[i]), &r) != nil || r.Protocol != p || r.LastUser() != "turn "+p {
			t.Fatalf("request log after %s: %q", p, data)
		}
		if strings.Contains(string(data), `"k"`) || r.Header.Get("Authorization")+r.Header.Get("X-Api-Key") != "[redacted]" {
			t.Fatalf("request log shows the key: %s", lines[i])
		}
	}

	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGINT: %v (stderr: %s)", err, stderr.String())
	}
}

func TestRun_BadArguments(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "s.json")
	os.WriteFile(script, []byte(`{}`), 0o600)
	tests := []struct {
		args []string
		err  string
	}{
		{nil, "-script is required"},
		{[]string{"-script", script, "-addr", "0.0.0.0:0"}, `-addr "0.0.0.0:0": want a loopback IP and port, such as 127.0.0.1:0`},
		{[]string{"-script", script, "-addr", "localhost"}, `-addr "localhost": want a loopback IP and port, such as 127.0.0.1:0`},
		{[]string{"-script", filepath.Join(dir, "none.json")}, "reading script: "},
	}
	for _, tt := range tests {
		err := run(context.Background(), tt.args, &bytes.Buffer{})
		if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
			t.Errorf("run(%q) = %v, want %q", tt.args, err, tt.err)
		}
	}
}
