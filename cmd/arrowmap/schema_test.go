package main

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// brokenBodies is the IPC file of the kinds fixture (which has a
// dictionary, read when arrow-go opens a file) with every byte between its
// schema message and its footer overwritten: the schema and the footer
// read, the dictionaries and records do not.
func brokenBodies(t *testing.T) string {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	data, err := os.ReadFile(testFiles.kinds)
	require.NoError(t, err)
	// The schema message's length: a stream of the schema alone is it and
	// the end-of-stream marker.
	var schemaOnly bytes.Buffer
	w := ipc.NewWriter(&schemaOnly, ipc.WithSchema(kindsSchema), ipc.WithAllocator(mem))
	require.NoError(t, w.Close())
	start := len("ARROW1\x00\x00") + schemaOnly.Len() - 8
	footer := len(data) - len("ARROW1") - 4 - int(binary.LittleEndian.Uint32(data[len(data)-10:]))
	require.Less(t, start, footer)
	broken := bytes.Clone(data)
	for i := start; i < footer; i++ {
		broken[i] = 0xee
	}
	path := filepath.Join(t.TempDir(), "broken.arrow")
	require.NoError(t, os.WriteFile(path, broken, 0o600))
	return path
}

func TestSchemaReadsOnlyTheSchema(t *testing.T) {
	path := brokenBodies(t)
	want, stderr, status := arrowmap(t, nil, "schema", testFiles.kinds)
	require.Equal(t, 0, status, "stderr: %s", stderr)

	t.Run("schema prints the schema of a file whose records are broken", func(t *testing.T) {
		stdout, stderr, status := arrowmap(t, nil, "schema", path)
		require.Equal(t, 0, status, "stderr: %s", stderr)
		assert.Equal(t, want, stdout)
	})
	t.Run("from standard input too", func(t *testing.T) {
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		stdout, stderr, status := arrowmap(t, data, "schema", "-")
		require.Equal(t, 0, status, "stderr: %s", stderr)
		assert.Equal(t, want, stdout)
	})
	t.Run("head fails with an error naming the file", func(t *testing.T) {
		stdout, stderr, status := arrowmap(t, nil, "head", path)
		assert.Equal(t, 1, status)
		assert.Empty(t, stdout)
		assert.True(t, strings.HasPrefix(stderr, "arrowmap: "+path+": "), "stderr: %s", stderr)
		assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
	})
	t.Run("gen reads the schema alone too, and prints its type", func(t *testing.T) {
		want, _, status := arrowmap(t, nil, "gen", testFiles.kinds)
		require.Equal(t, 0, status)
		stdout, stderr, status := arrowmap(t, nil, "gen", path)
		require.Equal(t, 0, status, "stderr: %s", stderr)
		assert.Equal(t, strings.ReplaceAll(want, testFiles.kinds, path), stdout)
	})
	t.Run("schema of a Parquet and a stream file is their schema", func(t *testing.T) {
		for _, f := range []string{testFiles.pqt, testFiles.stream} {
			stdout, stderr, status := arrowmap(t, nil, "schema", f)
			require.Equal(t, 0, status, "stderr: %s", stderr)
			assert.True(t, strings.HasPrefix(stdout, "schema:\n  fields: 7\n"), "output:\n%s", stdout)
		}
	})
}
