package flight_test

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/memory"
	amflight "github.com/arrowmap/arrowmap/flight"
	"github.com/arrowmap/arrowmap/mapper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFlightReadersNameTheRowOfTheStreamAndItsRecord(t *testing.T) {
	// One endpoint of three records of 1,000 rows, a null name at row 345
	// of the third; then, for OwnedPages, the same stream as endpoint 1.
	nullAt := 2345
	bad := stream{sizes: []int{1000, 1000, 1000}, nullName: &nullAt}
	reads := []struct {
		name    string
		streams []stream
		read    func(ctx context.Context, client flight.Client, info *flight.FlightInfo) error
	}{
		{"Stream and Pages of 300", []stream{bad}, func(ctx context.Context, client flight.Client, info *flight.FlightInfo) error {
			r, err := amflight.Stream[event](ctx, client, info.Endpoint[0].Ticket)
			require.NoError(t, err)
			defer r.Release()
			for _, err := range r.Pages(300) {
				if err != nil {
					return err
				}
			}
			return nil
		}},
		{"Open and ReadAll", []stream{bad}, func(ctx context.Context, client flight.Client, info *flight.FlightInfo) error {
			r, err := amflight.Open[event](ctx, amflight.Source{Client: client}, info)
			require.NoError(t, err)
			defer r.Release()
			_, err = r.ReadAll()
			return err
		}},
		{"OwnedPages of 300, the row counted in its endpoint's stream", []stream{{sizes: []int{10}}, bad}, func(ctx context.Context, client flight.Client, info *flight.FlightInfo) error {
			for _, err := range amflight.OwnedPages[event](ctx, amflight.Source{Client: client}, info, 300) {
				if err != nil {
					return err
				}
			}
			return nil
		}},
	}
	for _, rd := range reads {
		t.Run(rd.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			t.Cleanup(func() { mem.AssertSize(t, 0) }) // after the server stops
			client := serve(t, &eventServer{mem: mem, streams: rd.streams})
			ctx := testContext(t)
			err := rd.read(ctx, client, flightInfo(t, ctx, client))
			require.ErrorIs(t, err, mapper.ErrNull)
			var me *mapper.Error
			require.ErrorAs(t, err, &me)
			assert.Equal(t, nullAt, me.Row, "the row of the stream, not of its record")
			assert.Equal(t, 2, me.Record)
			assert.Equal(t, "name", me.Column)
			assert.Contains(t, err.Error(), "row 2345 (record 2)")
		})
	}
}
