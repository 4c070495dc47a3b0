package config

import (
	"strings"
	"testing"
)

func BenchmarkNormalize(b *testing.B) {
	for _, file := range []string{"vscode.json", "codex_http.toml", "claude_desktop.json"} {
		b.Run(file, func(b *testing.B) {
			in := readTestdata(b, file)
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				if _, err := Normalize(in, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("10MiB-refused", func(b *testing.B) {
		in := strings.Repeat("x", 10<<20)
		for b.Loop() {
			if _, err := Normalize(in, Options{}); err == nil {
				b.Fatal("accepted")
			}
		}
	})
	b.Run("1MiB-servers", func(b *testing.B) {
		var sb strings.Builder
		sb.WriteString(`{"mcpServers":{`)
		for i := 0; sb.Len() < MaxInput-100; i++ {
			sb.WriteString(`"s` + strings.Repeat("x", i%50) + string(rune('a'+i%26)) + `":{"command":"npx","args":["-y","pkg"]},`)
		}
		sb.WriteString(`"last":{"command":"x"}}}`)
		in := sb.String()
		b.SetBytes(int64(len(in)))
		for b.Loop() {
			Normalize(in, Options{})
		}
	})
}

func BenchmarkExpandVars(b *testing.B) {
	e := Entry{Name: "x", Transport: HTTP, URL: "${BASE:-https://api.example.com}/mcp",
		Headers: map[string]string{"Authorization": "Bearer ${TOKEN}", "X-Key": "${input:api-key}"}}
	src := sources(map[string]string{"TOKEN": "t"}, map[string]string{"api-key": "k"})
	for b.Loop() {
		if _, err := ExpandVars(e, src); err != nil {
			b.Fatal(err)
		}
	}
}
