// Command hello is the floor for tai's start-up in make bench-start: a Go
// program that prints one line, built the way tai is.
package main

import "fmt"

func main() { fmt.Println("hello, world") }
