package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"tai/internal/textsafe"
)

// printJSON writes v as indented JSON.
func printJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(w, string(b))
	return err
}

// printTable writes a line of tab-separated columns per item under header,
// aligned, or the line empty when there are no items.
func printTable[T any](out io.Writer, empty, header string, items []T, row func(T) string) error {
	if len(items) == 0 {
		fmt.Fprintln(out, empty)
		return nil
	}
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, header)
	for _, it := range items {
		fmt.Fprintln(w, row(it))
	}
	return w.Flush()
}

// minute formats a Unix time to the minute, as tables show it.
func minute(unix int64) string { return time.Unix(unix, 0).Format("2006-01-02 15:04") }

// printText prints text that came from outside (a tool's result, a
// record) on stdout, ending in a newline, made safe when stdout is a
// terminal.
func (a *App) printText(text string) {
	if a.IsTerminal(a.Stdout) {
		text = textsafe.Clean(text)
	}
	fmt.Fprint(a.Stdout, text)
	if !strings.HasSuffix(text, "\n") {
		fmt.Fprintln(a.Stdout)
	}
}
