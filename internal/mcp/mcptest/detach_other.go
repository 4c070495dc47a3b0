//go:build !unix

package mcptest

import "errors"

func detach() (int, error) { return 0, errors.New("detach needs a Unix session") }
