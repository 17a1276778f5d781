// Package compat measures whether real coding agents still work under
// aixbroker and whether the secrets still hold.
//
// It runs each agent (Claude Code, Codex, Gemini CLI, opencode) headless
// against a scripted model server on 127.0.0.1. The server speaks the API the
// agent expects (Anthropic Messages, OpenAI Responses or Chat Completions,
// Gemini generateContent, all streamed) and, instead of thinking, answers with
// the tool calls a scenario lists. The agent runs those calls with its own
// tools and sends the results back; the server keeps every request body.
//
// Scenarios are data (scenarios/*.json): a prompt, abstract steps (shell,
// read, write, edit) that each agent's dialect turns into its own tool calls,
// and what each step must show, both in the tool result the model sees and in
// the files on disk. A run builds a fixture project and a fake HOME holding
// canary secrets; a leak is a canary in any request body or in any file the
// agent wrote. Legitimate steps that fail are false positives.
//
// Report renders the matrix as Markdown (docs/COMPAT.md) and JSON
// (docs/compat.json). The command compat/cmd/aixcompat drives a full run;
// `make compat` calls it.
package compat
