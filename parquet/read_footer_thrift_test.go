package parquet_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"runtime"
	"testing"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/arrowmap/arrowmap/mapper"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/require"
)

// fileOfFooter is a Parquet file of no data whose footer is what write
// encodes with thrift's compact protocol.
func fileOfFooter(t *testing.T, write func(ctx context.Context, p *thrift.TCompactProtocol)) []byte {
	buf := thrift.NewTMemoryBuffer()
	p := thrift.NewTCompactProtocolConf(buf, &thrift.TConfiguration{})
	ctx := context.Background()
	write(ctx, p)
	require.NoError(t, p.Flush(ctx))
	footer := buf.Bytes()
	file := append([]byte("PAR1"), footer...)
	file = binary.LittleEndian.AppendUint32(file, uint32(len(footer)))
	return append(file, "PAR1"...)
}

// schemaFooter writes a FileMetaData of a schema of elements, each of the
// given number of children, claiming a list of listLen elements.
func schemaFooter(children []int32, listLen int) func(ctx context.Context, p *thrift.TCompactProtocol) {
	return func(ctx context.Context, p *thrift.TCompactProtocol) {
		p.WriteStructBegin(ctx, "FileMetaData")
		p.WriteFieldBegin(ctx, "version", thrift.I32, 1)
		p.WriteI32(ctx, 1)
		p.WriteFieldEnd(ctx)
		p.WriteFieldBegin(ctx, "schema", thrift.LIST, 2)
		p.WriteListBegin(ctx, thrift.STRUCT, listLen)
		for i, n := range children {
			p.WriteStructBegin(ctx, "SchemaElement")
			p.WriteFieldBegin(ctx, "name", thrift.STRING, 4)
			p.WriteString(ctx, string(rune('a'+i)))
			p.WriteFieldEnd(ctx)
			p.WriteFieldBegin(ctx, "num_children", thrift.I32, 5)
			p.WriteI32(ctx, n)
			p.WriteFieldEnd(ctx)
			p.WriteFieldStop(ctx)
			p.WriteStructEnd(ctx)
		}
		p.WriteListEnd(ctx)
		p.WriteFieldEnd(ctx)
		p.WriteFieldBegin(ctx, "num_rows", thrift.I64, 3)
		p.WriteI64(ctx, 0)
		p.WriteFieldEnd(ctx)
		p.WriteFieldStop(ctx)
		p.WriteStructEnd(ctx)
	}
}

// A footer is walked before arrow-go decodes it: the counts its encoding
// claims, which arrow-go allocates before reading what they count, are
// bounded by the bytes there are.
func TestAFooterClaimingMoreThanItHoldsIsInvalidDataNotAnAllocation(t *testing.T) {
	for _, tc := range []struct {
		name string
		file []byte
		says string
	}{
		{"a schema element of half a billion children", fileOfFooter(t, schemaFooter([]int32{1 << 29}, 1)), "children"},
		{"a schema element of negative children", fileOfFooter(t, schemaFooter([]int32{-1}, 1)), "children"},
		{"a schema list of a million elements in a few bytes", fileOfFooter(t, schemaFooter([]int32{0}, 1<<20)), "length"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := amparquet.OpenRecordsReaderAt(bytes.NewReader(tc.file), int64(len(tc.file)), amparquet.ReadConfig{})
			runtime.ReadMemStats(&after)
			require.Error(t, err)
			require.True(t, errors.Is(err, mapper.ErrInvalidData), "%v", err)
			require.Contains(t, err.Error(), tc.says)
			require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20), "allocated while refusing")
		})
	}
	// The walk reads a well-formed footer as arrow-go does.
	good := fileOfFooter(t, schemaFooter([]int32{1, 0}, 2))
	_, err := amparquet.OpenRecordsReaderAt(bytes.NewReader(good), int64(len(good)), amparquet.ReadConfig{})
	if err != nil {
		require.NotContains(t, err.Error(), "malformed footer", "a footer the walk takes: %v", err)
	}
}
