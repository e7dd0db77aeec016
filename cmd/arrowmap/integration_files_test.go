package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every file of Arrow's integration suite converts to Parquet and back
// with what head and schema print unchanged, but for what Parquet has no
// type for and values the Arrow spec forbids, each refused in one line
// naming the column.
func TestEveryIntegrationFileConvertsToParquetAndBack(t *testing.T) {
	files, err := filepath.Glob("../../testdata/arrow-integration/1.0.0-littleendian/*.arrow_file")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	refused := map[string][]string{
		// Parquet has no union type, and no signed interval.
		"generated_union.arrow_file": {`column "sparse"`, "union"},
		// f1, interval[months], is kept (an int32 on disk); f6 is not.
		"generated_interval.arrow_file": {`column "f6"`, "day_time_interval"},
		// The generator writes date64 values that are not whole days, which
		// the spec forbids: refused rather than rounded.
		"generated_datetime.arrow_file": {`column "f1"`, "row 2"},
		// Its decimals have more digits than their precision.
		"generated_decimal.arrow_file":    {`column "f0"`, "row 0", "has more digits than decimal(3, 2) holds"},
		"generated_decimal256.arrow_file": {`column "f0"`, "row 1", "has more digits than decimal256(37, 5) holds"},
	}
	dir := t.TempDir()
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			pq := filepath.Join(dir, strings.TrimSuffix(name, ".arrow_file")+".parquet")
			_, stderr, status := arrowmap(t, nil, "convert", path, pq)
			if want, ok := refused[name]; ok {
				assert.Equal(t, 1, status)
				assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
				for _, w := range want {
					assert.Contains(t, stderr, w)
				}
				assert.Empty(t, parquetFilesIn(t, dir, pq), "nothing written")
				return
			}
			require.Equal(t, 0, status, "convert to Parquet: %s", stderr)
			back := filepath.Join(dir, strings.TrimSuffix(name, ".arrow_file")+".back.arrow")
			convertOK(t, pq, back)

			headOf := func(file string) (string, string, int) {
				return arrowmap(t, nil, "head", "-n", "1000000", file)
			}
			want, wantErr, wantStatus := headOf(path)
			for _, f := range []string{pq, back} {
				got, gotErr, gotStatus := headOf(f)
				assert.Equal(t, wantStatus, gotStatus, "head %s: %s", filepath.Base(f), gotErr)
				assert.Equal(t, want, got, "head of %s", filepath.Base(f))
				if wantStatus != 0 { // the same refusal, of the same value
					assert.Equal(t, refusalOf(wantErr, path), refusalOf(gotErr, f))
				}
			}
			assert.Equal(t, schemaOf(t, path), schemaOf(t, back), "schema after Parquet")
		})
	}
}

// parquetFilesIn is the files of dir named as out or as its temporary.
func parquetFilesIn(t *testing.T, dir, out string) []string {
	var found []string
	for _, n := range dirNames(t, dir) {
		if strings.HasPrefix(n, filepath.Base(out)) {
			found = append(found, n)
		}
	}
	return found
}

// refusalOf is what stderr says past the name of file.
func refusalOf(stderr, file string) string {
	return strings.ReplaceAll(stderr, file, "FILE")
}

// head names the row of the file a value it cannot print is at, and the
// record: not the row within that record.
func TestHeadNamesTheRowOfTheFile(t *testing.T) {
	dt := &arrow.Decimal128Type{Precision: 3, Scale: 2}
	schema := arrow.NewSchema([]arrow.Field{{Name: "price", Type: dt}}, nil)
	var buf bytes.Buffer
	w, err := ipc.NewFileWriter(&buf, ipc.WithSchema(schema))
	require.NoError(t, err)
	for r := range 3 {
		b := array.NewDecimal128Builder(memory.DefaultAllocator, dt)
		for i := range 1000 {
			v := int64(i % 999)
			if r == 2 && i == 7 {
				v = 12345 // five digits in a decimal(3, 2): past the spec
			}
			b.Append(decimal128.FromI64(v))
		}
		col := b.NewArray()
		rec := array.NewRecordBatch(schema, []arrow.Array{col}, 1000)
		require.NoError(t, w.Write(rec))
		rec.Release()
		col.Release()
		b.Release()
	}
	require.NoError(t, w.Close())
	path := filepath.Join(t.TempDir(), "prices.arrow")
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o600))

	stdout, stderr, status := arrowmap(t, nil, "head", "-n", "5000", path)
	assert.Equal(t, 1, status)
	assert.Equal(t, 2007, strings.Count(stdout, "\n"), "every row before it printed")
	assert.Contains(t, stderr, `column "price", row 2007 (record 2)`)
}
