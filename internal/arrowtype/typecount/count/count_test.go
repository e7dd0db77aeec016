package count_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/internal/arrowtype"
	"github.com/arrowmap/arrowmap/internal/arrowtype/typecount/count"
)

// root is the module's root, four levels up.
const root = "../../../.."

// TestNoArrowTypeIsNamedInMoreThanThreeFiles is the one-table rule: the
// table, its views and one more file where a layout truly differs at
// most.
func TestNoArrowTypeIsNamedInMoreThanThreeFiles(t *testing.T) {
	counts, err := count.Module(root)
	require.NoError(t, err)
	require.Len(t, counts, len(arrowtype.Rows()), "a count for every row of the table")
	for _, c := range counts {
		assert.LessOrEqual(t, len(c.Files), 3, "%s is named in %v", c.Type, c.Files)
		assert.Contains(t, c.Files, "internal/arrowtype/table.go", "the table names %s", c.Type)
	}
}

// TestTheCountFindsEveryWayOfNamingAType writes a file that names one
// type each way the rule counts, and none of them only in a test file.
func TestTheCountFindsEveryWayOfNamingAType(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte("package p\n\n"+text+"\n"), 0o644))
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module p\n"), 0o644))
	write("id.go", "var _ = arrow.DATE64")
	write("type.go", "var _ *arrow.Time32Type")
	write("array.go", "var _ *array.Timestamp")
	write("builder.go", "var _ *array.DurationBuilder")
	write("not_a_name.go", "var _ = arrow.Date64SizeBytes // var _ = array.Timestamps")
	write("a_test.go", "var _ = arrow.DATE64")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "bench"), 0o755))
	write("bench/b.go", "var _ = arrow.DATE64")
	counts, err := count.Module(dir)
	require.NoError(t, err)
	files := map[string][]string{}
	for _, c := range counts {
		files[c.Type] = c.Files
	}
	assert.Equal(t, []string{"id.go"}, files["date64"])
	assert.Equal(t, []string{"type.go"}, files["time32"])
	assert.Equal(t, []string{"array.go"}, files["timestamp"])
	assert.Equal(t, []string{"builder.go"}, files["duration"])
	assert.Empty(t, files["int8"])
}
