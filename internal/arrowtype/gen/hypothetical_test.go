package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAddingATypeIsItsRowAndRegeneratedFiles checks docs/adding-a-type.md:
// the repository taken back to before the type the doc adds (its diff
// reversed) and regenerated builds, and every file that differs from the
// repository as it is is the table, a generated file, or one of the at
// most two others the doc lists.
func TestAddingATypeIsItsRowAndRegeneratedFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a copy of the module")
	}
	doc, err := os.ReadFile(filepath.Join(root, "docs", "adding-a-type.md"))
	require.NoError(t, err)
	diff := regexp.MustCompile("(?s)```diff\n(.*?)```").FindSubmatch(doc)
	require.NotNil(t, diff, "the doc shows its diff in a ```diff block")
	listed := regexp.MustCompile("(?m)^- `([^`]+)`").FindAllSubmatch(doc, -1)

	// The files git tracks, as they are in the work tree: the untracked
	// ones are other tests' temporaries, made and removed meanwhile.
	tracked, err := exec.Command("git", "-C", root, "ls-files", "-c").Output()
	if err != nil {
		t.Skip("no git to list the repository's files:", err)
	}
	before := t.TempDir()
	var files []string
	for _, rel := range strings.Fields(string(tracked)) {
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			continue // deleted in the work tree
		}
		files = append(files, rel)
		require.NoError(t, os.MkdirAll(filepath.Join(before, filepath.Dir(rel)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(before, rel), b, 0o644))
	}
	require.NoError(t, os.WriteFile(filepath.Join(before, "add.diff"), diff[1], 0o644))
	apply := exec.Command("git", "apply", "--reverse", "add.diff")
	apply.Dir = before
	out, err := apply.CombinedOutput()
	require.NoError(t, err, "the doc's diff is the repository's as it is: %s", out)
	require.NoError(t, os.Remove(filepath.Join(before, "add.diff")))

	generated, err := generate(root) // which files are generated; the copy's own run writes them
	require.NoError(t, err)
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	gen := exec.Command("go", "generate", "./internal/arrowtype")
	gen.Dir, gen.Env = before, env
	out, err = gen.CombinedOutput()
	require.NoError(t, err, "go generate on the table without the type: %s", out)
	build := exec.Command("go", "build", "./...")
	build.Dir, build.Env = before, env
	out, err = build.CombinedOutput()
	require.NoError(t, err, "the module builds without the type: %s", out)

	var changed, others []string
	for _, rel := range files {
		now, _ := os.ReadFile(filepath.Join(root, rel))
		then, _ := os.ReadFile(filepath.Join(before, rel))
		if bytes.Equal(now, then) {
			continue
		}
		changed = append(changed, rel)
		if !strings.HasPrefix(rel, "internal/arrowtype/") && generated[rel] == nil {
			others = append(others, rel)
		}
	}
	t.Logf("the files adding the type changes: %v", changed)
	assert.LessOrEqual(t, len(others), 2, "beyond the table and generated code: %v", others)
	var names []string
	for _, m := range listed {
		names = append(names, string(m[1]))
	}
	assert.ElementsMatch(t, changed, names, "the doc lists the files the type changes")
}
