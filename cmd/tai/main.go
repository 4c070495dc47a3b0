// Command tai is a terminal AI agent that speaks MCP in both directions.
package main

import (
	"os"

	"tai/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:]))
}
