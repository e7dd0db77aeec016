package integration

import (
	"database/sql"
	"net"
	"testing"

	"github.com/apache/arrow-adbc/go/adbc/driver/flightsql"
	"github.com/apache/arrow-go/v18/arrow/flight"
	arrowflightsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	_ "github.com/apache/arrow-go/v18/arrow/flight/flightsql/driver"
	"github.com/apache/arrow-go/v18/arrow/flight/flightsql/example"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/require"
)

// startSQLite starts arrow-go's SQLite-backed Flight SQL example server on
// a free 127.0.0.1 port, stopped when the test ends; it returns the
// server's address (host:port).
func startSQLite(t testing.TB) string {
	t.Helper()
	db, err := example.CreateDB()
	require.NoError(t, err)
	srv, err := example.NewSQLiteFlightSQLServer(db)
	require.NoError(t, err)
	srv.Alloc = memory.DefaultAllocator
	s := flight.NewServerWithMiddleware(nil)
	s.RegisterFlightService(arrowflightsql.NewFlightServer(srv))
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	s.InitListener(lis)
	go func() { _ = s.Serve() }()
	t.Cleanup(func() {
		s.Shutdown()
		_ = db.Close()
	})
	return lis.Addr().String()
}

var (
	_ = flightsql.NewDriver
	_ = sql.Open
	_ = mapper.Decode[struct{}]
)

func TestTheSQLiteServerStarts(t *testing.T) {
	addr := startSQLite(t)
	require.NotEmpty(t, addr)
}
