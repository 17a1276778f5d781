package compat

import "strings"

// Dialect turns an abstract step into one agent's own tool call.
type Dialect func(Step) ToolCall

// claudeDialect uses Claude Code's Bash, Read, Write and Edit tools.
func claudeDialect(st Step) ToolCall {
	switch st.Op {
	case OpRead:
		return ToolCall{"Read", map[string]any{"file_path": st.Path}}
	case OpWrite:
		return ToolCall{"Write", map[string]any{"file_path": st.Path, "content": st.Content}}
	case OpEdit:
		return ToolCall{"Edit", map[string]any{"file_path": st.Path, "old_string": st.Old, "new_string": st.New}}
	default:
		return ToolCall{"Bash", map[string]any{"command": st.Cmd, "description": "scripted step"}}
	}
}

// codexDialect sends everything through Codex's exec_command shell tool:
// its apply_patch tool is free-form text, and a shell write is what the
// model does most of the time anyway.
func codexDialect(st Step) ToolCall {
	return ToolCall{"exec_command", map[string]any{"cmd": shellFor(st)}}
}

// geminiDialect uses Gemini CLI's run_shell_command, read_file, write_file
// and replace tools.
func geminiDialect(st Step) ToolCall {
	switch st.Op {
	case OpRead:
		return ToolCall{"read_file", map[string]any{"file_path": st.Path}}
	case OpWrite:
		return ToolCall{"write_file", map[string]any{"file_path": st.Path, "content": st.Content}}
	case OpEdit:
		return ToolCall{"replace", map[string]any{"file_path": st.Path, "old_string": st.Old, "new_string": st.New, "instruction": "scripted edit"}}
	default:
		return ToolCall{"run_shell_command", map[string]any{"command": st.Cmd, "description": "scripted step"}}
	}
}

// opencodeDialect uses opencode's bash, read, write and edit tools.
func opencodeDialect(st Step) ToolCall {
	switch st.Op {
	case OpRead:
		return ToolCall{"read", map[string]any{"filePath": st.Path}}
	case OpWrite:
		return ToolCall{"write", map[string]any{"filePath": st.Path, "content": st.Content}}
	case OpEdit:
		return ToolCall{"edit", map[string]any{"filePath": st.Path, "oldString": st.Old, "newString": st.New}}
	default:
		return ToolCall{"bash", map[string]any{"command": st.Cmd, "description": "scripted step"}}
	}
}

// shellFor writes a step as one shell command.
func shellFor(st Step) string {
	switch st.Op {
	case OpRead:
		return "cat " + shellQuote(st.Path)
	case OpWrite:
		return "printf '%s' " + shellQuote(st.Content) + " > " + shellQuote(st.Path)
	case OpEdit:
		return "f=" + shellQuote(st.Path) + "; old=" + shellQuote(st.Old) + "; new=" + shellQuote(st.New) +
			`; c=$(cat "$f") && printf '%s\n' "${c/"$old"/"$new"}" > "$f"`
	default:
		return st.Cmd
	}
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
