// Package bench measures what the sandbox costs: the same operations and
// commands run natively, under aixbroker (broker only, and broker plus the
// interposer) and under bubblewrap, in one run, alternating the order of
// the sides from round to round so that a change in the machine's load
// falls on every side alike. It reports medians over the rounds, the
// spread between rounds, and ratios to native.
//
// The micro operations are timed inside the sandboxed process by a small C
// program (microbench.c, compiled with the system's cc at run time), so the
// sandbox's startup is not counted in them; startup is measured on its own.
// The macro commands are timed the same way, from inside the sandbox.
package bench
