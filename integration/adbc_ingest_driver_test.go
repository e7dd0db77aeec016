package integration

import (
	"context"
	"fmt"
	"testing"

	"github.com/apache/arrow-adbc/go/adbc"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	arrowflightsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// ingestingConnection is ADBC's Flight SQL driver with the bulk ingest it
// lacks: v1.9.0 refuses the adbc.ingest.target_table option (StatusNotImplemented).
// Its statements take the ingest options, and ExecuteUpdate with a target
// sends what is bound through arrow-go's flightsql.Client.ExecuteIngest
// (DoPut of CommandStatementIngest), with the table definition options
// of the ADBC mode, as ADBC's C++ Flight SQL driver does. Everything else
// is the driver's own.
type ingestingConnection struct {
	adbc.Connection
	client *arrowflightsql.Client
}

// openIngesting opens an ingestingConnection to the Flight SQL server at
// addr, closed when the test ends.
func openIngesting(t *testing.T, ctx context.Context, addr string, mem memory.Allocator) adbc.Connection {
	t.Helper()
	cnxn := openFlightSQL(t, ctx, addr, mem)
	client, err := arrowflightsql.NewClient(addr, nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	client.Alloc = mem
	t.Cleanup(func() { require.NoError(t, client.Close()) })
	return &ingestingConnection{Connection: cnxn, client: client}
}

func (c *ingestingConnection) NewStatement() (adbc.Statement, error) {
	stmt, err := c.Connection.NewStatement()
	if err != nil {
		return nil, err
	}
	return &ingestingStatement{Statement: stmt, client: c.client}, nil
}

type ingestingStatement struct {
	adbc.Statement
	client      *arrowflightsql.Client
	table, mode string
	bound       array.RecordReader
}

// ingestModes are the table definition options of each ADBC ingest mode.
var ingestModes = map[string]*arrowflightsql.TableDefinitionOptions{
	adbc.OptionValueIngestModeCreate: {
		IfNotExist: arrowflightsql.TableDefinitionOptionsTableNotExistOptionCreate,
		IfExists:   arrowflightsql.TableDefinitionOptionsTableExistsOptionFail,
	},
	adbc.OptionValueIngestModeAppend: {
		IfNotExist: arrowflightsql.TableDefinitionOptionsTableNotExistOptionFail,
		IfExists:   arrowflightsql.TableDefinitionOptionsTableExistsOptionAppend,
	},
	adbc.OptionValueIngestModeReplace: {
		IfNotExist: arrowflightsql.TableDefinitionOptionsTableNotExistOptionCreate,
		IfExists:   arrowflightsql.TableDefinitionOptionsTableExistsOptionReplace,
	},
	adbc.OptionValueIngestModeCreateAppend: {
		IfNotExist: arrowflightsql.TableDefinitionOptionsTableNotExistOptionCreate,
		IfExists:   arrowflightsql.TableDefinitionOptionsTableExistsOptionAppend,
	},
}

func (s *ingestingStatement) SetOption(key, val string) error {
	switch key {
	case adbc.OptionKeyIngestTargetTable:
		s.table = val
	case adbc.OptionKeyIngestMode:
		if ingestModes[val] == nil {
			return adbc.Error{Code: adbc.StatusInvalidArgument, Msg: fmt.Sprintf("invalid ingest mode %q", val)}
		}
		s.mode = val
	default:
		return s.Statement.SetOption(key, val)
	}
	return nil
}

func (s *ingestingStatement) setBound(rr array.RecordReader) {
	if s.bound != nil {
		s.bound.Release()
	}
	s.bound = rr
}

func (s *ingestingStatement) Bind(ctx context.Context, rec arrow.RecordBatch) error {
	if s.table == "" {
		return s.Statement.Bind(ctx, rec)
	}
	rr, err := array.NewRecordReader(rec.Schema(), []arrow.RecordBatch{rec}) // retains rec
	if err != nil {
		return adbc.Error{Code: adbc.StatusInvalidArgument, Msg: err.Error()}
	}
	s.setBound(rr)
	return nil
}

func (s *ingestingStatement) BindStream(ctx context.Context, rr array.RecordReader) error {
	if s.table == "" {
		return s.Statement.BindStream(ctx, rr)
	}
	rr.Retain()
	s.setBound(rr)
	return nil
}

func (s *ingestingStatement) ExecuteUpdate(ctx context.Context) (int64, error) {
	if s.table == "" {
		return s.Statement.ExecuteUpdate(ctx)
	}
	if s.bound == nil {
		return -1, adbc.Error{Code: adbc.StatusInvalidState, Msg: "ingest with nothing bound"}
	}
	mode := s.mode
	if mode == "" {
		mode = adbc.OptionValueIngestModeCreate
	}
	// ExecuteIngest leaves its DoPut open when the stream fails: the
	// context ends it.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	n, err := s.client.ExecuteIngest(ctx, s.bound, &arrowflightsql.ExecuteIngestOpts{Table: s.table, TableDefinitionOptions: ingestModes[mode]})
	if err != nil {
		return -1, adbc.Error{Code: adbc.StatusIO, Msg: "ExecuteIngest: " + err.Error()}
	}
	return n, nil
}

func (s *ingestingStatement) Close() error {
	s.setBound(nil)
	return s.Statement.Close()
}
