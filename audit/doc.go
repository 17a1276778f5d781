// Package audit writes and reads aixbroker's tamper-evident audit log.
//
// The log is JSON Lines: one [Record] per line, each carrying the SHA-256 (or
// HMAC-SHA256) of the previous record, so that an auditor can check what the
// agent did without trusting the agent or the host process that wrote it.
// The format and the chain are specified in docs/audit.md, precisely enough
// for a third party to write their own verifier.
//
// The broker writes through a [Writer]: [Writer.Write] only appends to an
// in-memory batch and returns; a background goroutine encodes, chains and
// appends batches to the file under an exclusive lock, rotates at a size
// limit, and keeps a small ".head" anchor file with the last sequence number
// and hash. Several processes may append to the same log at once; the chain is
// one sequence across all of them and across rotated files.
//
// The reader side lists the rotated files of a log in order ([Files]),
// iterates over records ([Scan]), verifies the chain ([Verify], [VerifyLog]),
// filters ([Filter]) and summarises ([Sessions], [Stats]).
//
// This package imports nothing else from aixbroker: the broker converts its
// decisions into [Record] values.
package audit
