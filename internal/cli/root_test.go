package cli

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// The table of subcommands names each command as the command calls itself,
// and is every command the root has.
func TestRoot_SubcommandTableNamesEachCommand(t *testing.T) {
	var names []string
	for _, c := range subcommands {
		if got := c.build(&App{}).Name(); got != c.name {
			t.Errorf("subcommands lists %q for the command named %q", c.name, got)
		}
		names = append(names, c.name)
	}
	var tree []string
	for _, c := range newRoot(&App{}).Commands() {
		tree = append(tree, c.Name())
	}
	slices.Sort(names)
	slices.Sort(tree)
	if !slices.Equal(names, tree) {
		t.Errorf("subcommands %q, the root's commands %q", names, tree)
	}
}

// A command line resolves, in the tree built for it, to the same command
// with the same arguments as in the whole tree: every command and alias
// of the tree, with and without flags and arguments around it, and
// command lines that name no command.
func TestRoot_TreeForArgsResolvesAsTheWholeTree(t *testing.T) {
	var lines [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		for _, sub := range c.Commands() {
			for _, name := range append([]string{sub.Name()}, sub.Aliases...) {
				p := append(slices.Clone(path), name)
				lines = append(lines, p, append(slices.Clone(p), "ARG", "--json"),
					append([]string{"--home", "/tmp/h"}, p...), append([]string{"--yes"}, append(p, "x")...))
				walk(sub, p)
			}
		}
	}
	walk(newRoot(&App{}), nil)
	lines = append(lines, []string{}, []string{"--version"}, []string{"explain", "the", "mcp", "spec"},
		[]string{"-p", "hello"}, []string{"mcpx", "list"}, []string{"--help"}, []string{"help", "mcp"}, []string{"mcp", "-h"})
	if len(lines) < 100 {
		t.Fatalf("only %d command lines", len(lines))
	}
	for _, args := range lines {
		want, wantArgs, wantErr := newRoot(&App{}).Find(args)
		got, gotArgs, gotErr := newRootFor(&App{}, args).Find(args)
		if want.CommandPath() != got.CommandPath() || !slices.Equal(wantArgs, gotArgs) || (wantErr == nil) != (gotErr == nil) {
			t.Errorf("%q: the tree for it finds %q %q (%v), the whole tree %q %q (%v)",
				strings.Join(args, " "), got.CommandPath(), gotArgs, gotErr, want.CommandPath(), wantArgs, wantErr)
		}
	}
	if n := len(newRootFor(&App{}, []string{"--version"}).Commands()); n != 0 {
		t.Errorf("tai --version builds %d subcommands", n)
	}
	if n := len(newRootFor(&App{}, []string{"mcp", "list"}).Commands()); n != 1 {
		t.Errorf("tai mcp list builds %d subcommands", n)
	}
}
