package main

import (
	"go/build"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTheCommandEmbedsTheZoneDatabase guards the blank import: without it a
// file whose timestamps name an IANA zone fails on a host with no zone
// database, and no test on a host with one would notice.
func TestTheCommandEmbedsTheZoneDatabase(t *testing.T) {
	pkg, err := build.ImportDir(".", 0)
	require.NoError(t, err)
	require.Contains(t, pkg.Imports, "time/tzdata")
}
