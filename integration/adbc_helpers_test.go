package integration

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/apache/arrow-adbc/go/adbc"
	"github.com/apache/arrow-adbc/go/adbc/driver/flightsql"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/internal/testsupport/racetest"
	"github.com/stretchr/testify/require"
)

// noLeaks, called first in a test, checks when the test ends (after every
// other cleanup: servers stopped, connections closed) that the goroutines
// are back to what they were and that mem holds nothing. gRPC's own
// goroutines take a moment to end, so the count is polled; in the test's
// goroutine, not in require.Eventually's, which would count itself.
func noLeaks(t *testing.T) *memory.CheckedAllocator {
	t.Helper()
	before := runtime.NumGoroutine()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() {
		after := runtime.NumGoroutine()
		for deadline := time.Now().Add(10 * time.Second); after > before && time.Now().Before(deadline); after = runtime.NumGoroutine() {
			time.Sleep(10 * time.Millisecond)
		}
		if after > before {
			buf := make([]byte, 1<<20)
			t.Errorf("goroutines: %d before the test, %d after:\n%s", before, after, buf[:runtime.Stack(buf, true)])
		}
		mem.AssertSize(t, 0)
	})
	return mem
}

// testContext is a context that ends with the test, or after five minutes.
func testContext(t *testing.T) context.Context {
	t.Helper()
	// A guard against a hang, not a timing: the 1M-row tests take most of
	// a minute under -race on two loaded cores.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// openFlightSQL opens a connection of ADBC's Flight SQL driver to the
// Flight SQL server at addr, whose records are allocated from mem; the
// connection and its database are closed when the test ends.
func openFlightSQL(t *testing.T, ctx context.Context, addr string, mem memory.Allocator) adbc.Connection {
	t.Helper()
	db, err := flightsql.NewDriver(mem).NewDatabase(map[string]string{adbc.OptionKeyURI: "grpc://" + addr})
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	cnxn, err := db.Open(ctx)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, cnxn.Close()) })
	return cnxn
}

// skipIfTheDriverRaces skips, under the race detector, a test that
// releases a result before its stream has ended. ADBC's Flight SQL driver
// (v1.9.0) then races with gRPC: a cancelled DoGet's goroutine reads the
// header and trailer metadata (record_reader.go:112, building its
// Cancelled error) while gRPC's clientStream.finish writes them. The race
// is the driver's, whatever releases the reader early; without the race
// detector the test runs.
func skipIfTheDriverRaces(t *testing.T) {
	t.Helper()
	racetest.Skip(t, "ADBC's Flight SQL driver v1.9.0 races on a cancelled DoGet's header and trailer")
}
