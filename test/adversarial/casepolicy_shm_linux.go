package adversarial

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// casePolicy gives the case the project file <kind>/policy/<name>.yaml when
// there is one: it is copied into the world's project as .aixgate.yaml, so
// the case runs under it merged over generic, as under a cloned
// repository's own file. Most cases have none and run under generic alone.
func (r *Runner) casePolicy(c Case, w *World) error {
	src := filepath.Join(r.Dir, string(c.Kind), "policy", c.Name+".yaml")
	data, err := os.ReadFile(src)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read case policy: %w", err)
	}
	if err := os.WriteFile(filepath.Join(w.Project, ".aixgate.yaml"), data, 0o644); err != nil {
		return fmt.Errorf("write case policy: %w", err)
	}
	return nil
}
