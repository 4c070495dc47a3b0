//go:build !linux

package reaper

// Without a subreaper there is no watcher: Wrap leaves commands alone.
const supported = false

func watch([]string) int { return 2 }
