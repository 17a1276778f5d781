package compat

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Agent is one column of the matrix: how to install, configure and run a
// coding agent headless against the scripted model server.
type Agent struct {
	Name    string // short name used on the command line and in the report
	Package string // npm package
	Version string // pinned npm version
	Bin     string // executable npm puts on PATH
	Profile string // aixbroker built-in profile
	// Missing, when set, says why the agent cannot be installed here; it
	// keeps its profile and its row says so.
	Missing string
	Dialect Dialect
	// StatePaths are the agent's own files under HOME that must exist after
	// a run (config, cache, sessions): a refusal there is a false positive.
	StatePaths []string
	// Setup writes the agent's configuration into the fake HOME.
	Setup func(e Env) error
	// Args returns the headless command line (without the binary).
	Args func(e Env, prompt string) []string
	// Environ returns the variables the agent needs on top of the base ones.
	Environ func(e Env) []string
}

// Env is where one run happens.
type Env struct {
	Home    string // fake HOME
	Project string // fixture project, the agent's working directory
	Outside string // a sibling of the project the agent must not write
	BaseURL string // scripted model server, without trailing slash
}

// apiKey is the fake key every agent gets; the server ignores it.
const apiKey = "sk-compat-not-a-secret"

// Agents returns the matrix's agents, installable ones first.
func Agents() []Agent {
	return []Agent{
		{
			Name: "claude", Package: "@anthropic-ai/claude-code", Version: "2.1.332", Bin: "claude",
			Profile: "claude-code", Dialect: claudeDialect,
			StatePaths: []string{".claude.json", ".claude/projects"},
			Setup:      func(Env) error { return nil },
			Args: func(_ Env, prompt string) []string {
				return []string{"-p", prompt, "--permission-mode", "bypassPermissions", "--output-format", "json"}
			},
			Environ: func(e Env) []string {
				return []string{
					"ANTHROPIC_BASE_URL=" + e.BaseURL, "ANTHROPIC_API_KEY=" + apiKey,
					"DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
				}
			},
		},
		{
			Name: "codex", Package: "@openai/codex", Version: "0.171.0", Bin: "codex",
			Profile: "codex", Dialect: codexDialect,
			StatePaths: []string{".codex/sessions"},
			Setup:      func(Env) error { return nil },
			Args: func(e Env, prompt string) []string {
				provider := fmt.Sprintf(`model_providers.compat={name="compat",base_url="%s/v1",wire_api="responses",env_key="OPENAI_API_KEY"}`, e.BaseURL)
				return []string{
					"exec", "--json", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox",
					"-c", "model_provider=compat", "-c", provider, "-c", `model="gpt-5"`, prompt,
				}
			},
			Environ: func(Env) []string { return []string{"OPENAI_API_KEY=" + apiKey} },
		},
		{
			Name: "gemini", Package: "@google/gemini-cli", Version: "0.61.0", Bin: "gemini",
			Profile: "gemini", Dialect: geminiDialect,
			StatePaths: []string{".gemini/settings.json", ".gemini/tmp"},
			Setup: func(e Env) error {
				settings := map[string]any{"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}}}
				return writeJSONFile(filepath.Join(e.Home, ".gemini", "settings.json"), settings)
			},
			Args: func(_ Env, prompt string) []string {
				return []string{"-p", prompt, "--yolo", "--skip-trust", "-o", "json"}
			},
			Environ: func(e Env) []string {
				return []string{"GEMINI_API_KEY=" + apiKey, "GOOGLE_GEMINI_BASE_URL=" + e.BaseURL}
			},
		},
		{
			Name: "opencode", Package: "opencode-ai", Version: "1.18.33", Bin: "opencode",
			Profile: "opencode", Dialect: opencodeDialect,
			StatePaths: []string{".local/share/opencode", ".config/opencode/opencode.json"},
			Setup: func(e Env) error {
				cfg := map[string]any{
					"$schema": "https://opencode.ai/config.json",
					"model":   "compat/compat-model",
					"provider": map[string]any{"compat": map[string]any{
						"npm": "@ai-sdk/openai-compatible", "name": "compat",
						"options": map[string]any{"baseURL": e.BaseURL + "/v1", "apiKey": apiKey},
						"models":  map[string]any{"compat-model": map[string]any{"name": "compat-model", "tool_call": true}},
					}},
					"autoupdate": false, "share": "disabled",
				}
				return writeJSONFile(filepath.Join(e.Home, ".config", "opencode", "opencode.json"), cfg)
			},
			Args: func(_ Env, prompt string) []string {
				return []string{"run", "--auto", "--format", "json", prompt}
			},
			Environ: func(Env) []string {
				return []string{"OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_AUTOUPDATE=1"}
			},
		},
		{Name: "cursor-agent", Bin: "cursor-agent", Profile: "cursor",
			Missing: "not on npm: Cursor ships it only through its own download script, which cannot run here"},
		{Name: "aider", Bin: "aider", Profile: "aider",
			Missing: "a Python package (aider-chat on PyPI); this machine reaches npm, not PyPI"},
	}
}

// AgentByName returns the agent called name.
func AgentByName(name string) (Agent, error) {
	for _, a := range Agents() {
		if a.Name == name {
			return a, nil
		}
	}
	return Agent{}, fmt.Errorf("find agent %q: no such agent", name)
}

func writeJSONFile(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create dir for %s: %w", path, err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
