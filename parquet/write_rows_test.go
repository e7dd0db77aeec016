package parquet_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/arrowmap/arrowmap/internal/version"
	"github.com/arrowmap/arrowmap/mapper"
	amparquet "github.com/arrowmap/arrowmap/parquet"
	"github.com/stretchr/testify/require"
)

// failingWriter accepts n bytes, then fails every write.
type failingWriter struct {
	buf bytes.Buffer
	n   int
}

var errDiskFull = errors.New("disk full")

func (w *failingWriter) Write(p []byte) (int, error) {
	if room := w.n - w.buf.Len(); room < len(p) {
		w.buf.Write(p[:max(room, 0)])
		return max(room, 0), errDiskFull
	}
	return w.buf.Write(p)
}

func TestWriterWritesInBatchesWithoutLeaking(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	var buf bytes.Buffer
	w, err := amparquet.NewWriter[order](&buf, amparquet.WriteConfig{RowGroupRows: 40, Compression: amparquet.Zstd}, mapper.Allocator(mem))
	require.NoError(t, err)
	all := orders(250)
	// Writes of every size, some across row groups, some of none.
	for _, n := range []int{1, 0, 39, 1, 41, 100, 0, 68} {
		require.NoError(t, errOf(w.Write(all[:n])))
		all = all[n:]
	}
	require.Empty(t, all)
	require.NoError(t, w.Close())
	require.NoError(t, w.Close(), "Close after Close returns what the first did")

	r, err := amparquet.OpenReaderAt[order](bytes.NewReader(buf.Bytes()), int64(buf.Len()), amparquet.ReadConfig{}, mapper.Allocator(mem))
	got := readAllOf(t, r, err)
	require.Equal(t, orders(250), got)
	data := buf.Bytes()
	fr := openParquet(t, mem, data, 0)
	require.Equal(t, []int64{40, 40, 40, 40, 40, 40, 10}, rowGroupSizes(fr.ParquetReader()))
}

func TestWriteAfterCloseIsErrClosed(t *testing.T) {
	var buf bytes.Buffer
	w, err := amparquet.NewWriter[order](&buf, amparquet.WriteConfig{})
	require.NoError(t, err)
	require.NoError(t, errOf(w.Write(orders(3))))
	require.NoError(t, w.Close())
	size := buf.Len()
	require.ErrorIs(t, errOf(w.Write(orders(1))), amparquet.ErrClosed)
	require.Equal(t, size, buf.Len(), "nothing written after Close")
	got, err := amparquet.OpenReaderAt[order](bytes.NewReader(buf.Bytes()), int64(size), amparquet.ReadConfig{})
	require.Equal(t, orders(3), readAllOf(t, got, err))
}

func TestAFailingWriterIsAClearErrorAndNoFooter(t *testing.T) {
	// Find where the row groups end, to fail before, inside and after them.
	var whole bytes.Buffer
	require.NoError(t, writeTo(&whole, 1000))
	for _, n := range []int{0, 3, 4, 100, whole.Len() / 2, whole.Len() - 10} {
		t.Run(fmt.Sprintf("after %d of %d bytes", n, whole.Len()), func(t *testing.T) {
			fw := &failingWriter{n: n}
			err := writeTo(fw, 1000)
			require.Error(t, err)
			require.ErrorIs(t, err, errDiskFull, "the io.Writer's error is wrapped")
			require.LessOrEqual(t, fw.buf.Len(), n)
		})
	}
}

// writeTo writes n orders to out in row groups of 100 through every call
// of a Writer, and returns the first error; after one, it checks that the
// calls after it fail the same way and that Close says no footer was
// written.
func writeTo(out io.Writer, n int) error {
	w, err := amparquet.NewWriter[order](out, amparquet.WriteConfig{RowGroupRows: 100})
	if err != nil {
		return err
	}
	rows := orders(n)
	for i := 0; i < n; i += 50 {
		if _, err := w.Write(rows[i : i+50]); err != nil {
			if _, again := w.Write(rows[:1]); !errors.Is(again, errDiskFull) {
				return fmt.Errorf("a Write after the failure: %v", again)
			}
			cerr := w.Close()
			if cerr == nil || !errors.Is(cerr, errDiskFull) {
				return fmt.Errorf("Close after the failure: %v", cerr)
			}
			if want := "no footer written"; !bytes.Contains([]byte(cerr.Error()), []byte(want)) {
				return fmt.Errorf("Close after the failure does not say %q: %v", want, cerr)
			}
			return err
		}
	}
	return w.Close()
}

func TestARowThatDoesNotFitIsAnErrorAndTheRowsBeforeItAreWritten(t *testing.T) {
	rows := make([]texts, 30)
	for i := range rows {
		rows[i] = texts{S: fmt.Sprint(i), Dec: "1.000"}
	}
	rows[23].Dec = "not a number"
	var buf bytes.Buffer
	w, err := amparquet.NewWriter[texts](&buf, amparquet.WriteConfig{RowGroupRows: 8})
	require.NoError(t, err)
	require.NoError(t, errOf(w.Write(rows[:5])))
	_, err = w.Write(rows[5:])
	var me *mapper.Error
	require.ErrorAs(t, err, &me)
	require.Equal(t, "Dec", me.Path)
	require.Equal(t, 18, me.Row, "the row's index in the rows of the Write")
	require.NoError(t, errOf(w.Write(rows[24:26])), "the Writer goes on")
	require.NoError(t, w.Close())

	r, err := amparquet.OpenReaderAt[texts](bytes.NewReader(buf.Bytes()), int64(buf.Len()), amparquet.ReadConfig{})
	got := readAllOf(t, r, err)
	require.Equal(t, append(append([]texts{}, rows[:23]...), rows[24:26]...), got)
}

func TestNewWriterRefusesABadConfig(t *testing.T) {
	tests := []struct {
		name string
		cfg  amparquet.WriteConfig
		want string
	}{
		{"negative RowGroupRows", amparquet.WriteConfig{RowGroupRows: -1}, "negative"},
		{"negative RowGroupBytes", amparquet.WriteConfig{RowGroupBytes: -1}, "negative"},
		{"a codec none of the constants names", amparquet.WriteConfig{Compression: amparquet.Compression(200)}, "Compression"},
		{"a level the codec does not take", amparquet.WriteConfig{Compression: amparquet.Gzip, CompressionLevel: 42}, "CompressionLevel"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			_, err := amparquet.NewWriter[order](&out, tt.cfg)
			require.ErrorContains(t, err, tt.want)
			require.Zero(t, out.Len(), "a refused config writes nothing")
		})
	}
	_, err := amparquet.NewWriter[order](nil, amparquet.WriteConfig{})
	require.ErrorContains(t, err, "nil io.Writer")
}

func TestAFileWrittenAfterAFailedOneIsWhole(t *testing.T) {
	// A Writer whose io.Writer failed mid row group leaves pages built and
	// dictionary pages held; the next Writer takes its leaves' buffers.
	for range 5 {
		var whole bytes.Buffer
		require.NoError(t, writeTo(&whole, 1000))
		failing := &failingWriter{n: whole.Len() / 2}
		require.ErrorIs(t, writeTo(failing, 1000), errDiskFull)
		var next bytes.Buffer
		require.NoError(t, writeTo(&next, 1000))
		require.Equal(t, whole.Bytes(), next.Bytes(), "the same file as before the failure")
	}
}

// A file says arrowmap wrote it, in created_by's form
// ("<application> version <version>"), which arrow-go parses into the
// application and its version, and by which it does not distrust the
// statistics (as it does those of parquet-mr before 1.10 or parquet-cpp
// before arrow 4): every chunk's statistics are set, with a min and a max,
// text and decimals included, whichever way the chunk was written. Files
// said "parquet-go version 18.8.0", arrow-go's name.
func TestAFileSaysArrowmapWroteItAndReadersTrustItsStatistics(t *testing.T) {
	rows := make([]texts, 1000)
	for i := range rows {
		rows[i] = texts{S: fmt.Sprintf("row-%d", i%10), Large: "l", Bin: []byte{byte(i)}, LBin: []byte{1}, Fixed: [4]byte{byte(i)}, Dec: fmt.Sprintf("%d.500", i)}
	}
	for _, via := range []bool{false, true} {
		t.Run(fmt.Sprintf("through pqarrow %t", via), func(t *testing.T) {
			path := roundTrip(t, rows, amparquet.ThroughPqarrow(via, amparquet.WriteConfig{RowGroupRows: 400}))
			pf, err := file.OpenParquetFile(path, false)
			require.NoError(t, err)
			defer pf.Close()
			require.Equal(t, "arrowmap version "+version.Version, pf.MetaData().GetCreatedBy())
			wrote := pf.WriterVersion()
			require.Equal(t, "arrowmap", wrote.App)
			release, pre, _ := strings.Cut(version.Version, "-")
			require.Equal(t, release, fmt.Sprintf("%d.%d.%d", wrote.Version.Major, wrote.Version.Minor, wrote.Version.Patch),
				"arrow-go parses the version readers compare")
			require.Equal(t, pre, wrote.Version.PreRelease)
			for g := range pf.NumRowGroups() {
				rg := pf.MetaData().RowGroup(g)
				for c := range rg.NumColumns() {
					cc, err := rg.ColumnChunk(c)
					require.NoError(t, err)
					name := pf.MetaData().Schema.Column(c).Path()
					set, err := cc.StatsSet()
					require.NoError(t, err)
					require.True(t, set, "row group %d, %s: statistics trusted", g, name)
					stats, err := cc.Statistics()
					require.NoError(t, err)
					if name != "Addr" { // the zero netip.Addr, empty bytes: no min and max
						require.True(t, stats.HasMinMax(), "row group %d, %s: a min and a max", g, name)
					}
				}
			}
		})
	}
}
