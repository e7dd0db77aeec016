package main

import (
	"bytes"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/arrowmap/arrowmap/cmd/arrowmap/internal/sample"
)

// The embedded sample.arrow is what go generate writes: sample.Write's
// bytes, unchanged by a change to how sample builds them.
func TestTheEmbeddedSampleIsWhatSampleWriteWrites(t *testing.T) {
	embedded, err := os.ReadFile("sample.arrow")
	require.NoError(t, err)
	var written bytes.Buffer
	require.NoError(t, sample.Write(&written, sample.Rows))
	require.True(t, bytes.Equal(embedded, written.Bytes()), "sample.Write writes %d bytes, sample.arrow holds %d: run go generate ./cmd/arrowmap", written.Len(), len(embedded))
}
