// Package redact renders the redacted view of a sensitive file: what an agent
// reads when the policy's verdict for the file is "redact" (seed §5.1).
//
// Two modes exist, chosen per rule:
//
//   - "keys": the file's structure and key names are kept and every value is
//     replaced by [Marker]. An agent can see that .env defines DATABASE_URL
//     without seeing the URL.
//   - "stub": a short text saying the file is redacted and by which rule.
//
// "keys" is the default. It is available for the formats listed under
// [Format]; for anything else, and for any content the package cannot parse
// with certainty, Render falls back to the stub. It never falls back to the
// original content.
//
// The keys view is built, not edited: each renderer parses the input into
// keys and value extents and writes a new file from the keys, fixed syntax and
// the marker. No byte of a value or of a comment is ever copied to the output,
// so a parser that misjudges where a value ends produces a wrong stub or a
// refusal, not a leak.
//
// The package is pure: no I/O, no global state, deterministic output, bounded
// work (inputs over [MaxInput] bytes are stubbed) and no panics on any input.
// Reading the file is the caller's business (the broker reads it with its own
// rights and serves Render's result in a sealed memfd). docs/redaction.md
// shows every format before and after.
package redact
