package mapper_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sizedRecords is a record reader that notes the sizes asked of it.
type sizedRecords struct {
	array.RecordReader
	asked []int
}

func (s *sizedRecords) SizeNextRecord(rows int) { s.asked = append(s.asked, rows) }

// TestReaderAsksARecordSizerForTheRowsItStillWants shows who asks what of
// a mapper.RecordSizer: Read and Pages, before each record they reach,
// the rows still wanted for the page being filled; ReadAll and All
// nothing, their records keep the reader's size. The rows come back the
// same, whatever the record reader does with the size.
func TestReaderAsksARecordSizerForTheRowsItStillWants(t *testing.T) {
	for _, tc := range []struct {
		name  string
		read  func(*mapper.Reader[hintRow]) ([]hintRow, error)
		asked []int
	}{
		{"Pages of 1,500 ask 1,500, then what their page lacks at each record's end", func(r *mapper.Reader[hintRow]) ([]hintRow, error) {
			var got []hintRow
			for page, err := range r.Pages(1500) {
				if err != nil {
					return nil, err
				}
				got = append(got, page...)
			}
			return got, nil
		}, []int{1500, 500, 500, 1000, 1500}},
		{"ReadAll asks nothing", func(r *mapper.Reader[hintRow]) ([]hintRow, error) { return r.ReadAll() }, nil},
		{"All asks nothing", func(r *mapper.Reader[hintRow]) ([]hintRow, error) {
			var got []hintRow
			for row, err := range r.All() {
				if err != nil {
					return nil, err
				}
				got = append(got, row)
			}
			return got, nil
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			recs, want := hintRecords(t, mem, 1000, 3000, 2500)
			rr, err := array.NewRecordReader(recs[0].Schema(), recs)
			require.NoError(t, err)
			for _, rec := range recs {
				rec.Release()
			}
			src := &sizedRecords{RecordReader: rr}
			r, err := mapper.NewReader[hintRow](src)
			require.NoError(t, err)
			rr.Release()
			got, err := tc.read(r)
			r.Release()
			require.NoError(t, err)
			assert.Equal(t, want, got)
			// Records of 1,000, 3,000 and 2,500 rows in pages of 1,500:
			// the first record is reached with an empty page (1,500), the
			// second with 1,000 rows of the page in hand (500), the third
			// with 1,000 (500), the end with 500 of the last page (1,000),
			// and once more by the Read after it (1,500).
			assert.Equal(t, tc.asked, src.asked)
		})
	}
}
