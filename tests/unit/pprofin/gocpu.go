// Writes a CPU profile of a small CPU-bound program: a recursive function
// (fib), one that the compiler inlines (square) and a plain loop (spin).
package main

import (
	"os"
	"runtime/pprof"
)

var sink int

func square(x int) int { return x * x }

func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

//go:noinline
func spin(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += square(i) % 7
	}
	return s
}

func main() {
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	pprof.StartCPUProfile(f)
	for i := 0; i < 6; i++ {
		sink += fib(32)
		sink += spin(60000000)
	}
	pprof.StopCPUProfile()
	f.Close()
}
