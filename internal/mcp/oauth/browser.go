package oauth

import (
	"fmt"
	"os/exec"
	"runtime"
	"strings"
)

// OpenBrowser opens authURL in the person's browser and does not wait for
// it: with $BROWSER when set (a colon-separated list of commands tried in
// turn; %s stands for the URL, which is appended otherwise), else with the
// platform's opener. Callers print the URL as well, for terminals without
// a browser.
func OpenBrowser(authURL string, getenv func(string) string) error {
	cmd, err := startBrowser(authURL, getenv)
	if err != nil {
		return err
	}
	go func() { _ = cmd.Wait() }()
	return nil
}

func startBrowser(authURL string, getenv func(string) string) (*exec.Cmd, error) {
	candidates := browserCommands(authURL, getenv("BROWSER"))
	var tried []string
	for _, argv := range candidates {
		cmd := exec.Command(argv[0], argv[1:]...)
		if err := cmd.Start(); err == nil {
			return cmd, nil
		}
		tried = append(tried, argv[0])
	}
	return nil, fmt.Errorf("no browser could be started (tried %s); open the URL yourself", strings.Join(tried, ", "))
}

// browserCommands lists the argvs to try, $BROWSER's first.
func browserCommands(authURL, browser string) [][]string {
	var out [][]string
	for _, entry := range strings.Split(browser, ":") {
		fields := strings.Fields(entry)
		if len(fields) == 0 {
			continue
		}
		substituted := false
		for i, f := range fields {
			if strings.Contains(f, "%s") {
				fields[i], substituted = strings.ReplaceAll(f, "%s", authURL), true
			}
		}
		if !substituted {
			fields = append(fields, authURL)
		}
		out = append(out, fields)
	}
	if len(out) > 0 {
		return out
	}
	switch runtime.GOOS {
	case "darwin":
		return [][]string{{"open", authURL}}
	case "windows":
		return [][]string{{"rundll32", "url.dll,FileProtocolHandler", authURL}}
	}
	return [][]string{{"xdg-open", authURL}, {"x-www-browser", authURL}, {"www-browser", authURL}}
}
