package flight

import (
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// wire builds a message field by field.
type wire []byte

func (w wire) bytes(num protowire.Number, v []byte) wire {
	w = protowire.AppendTag(w, num, protowire.BytesType)
	return protowire.AppendBytes(w, v)
}

func (w wire) varint(num protowire.Number, v uint64) wire {
	w = protowire.AppendTag(w, num, protowire.VarintType)
	return protowire.AppendVarint(w, v)
}

func marshalled(t *testing.T, m proto.Message) []byte {
	t.Helper()
	b, err := proto.Marshal(m)
	require.NoError(t, err)
	return b
}

// codecCases are FlightData messages on the wire, well formed or not.
func codecCases(t *testing.T) []struct {
	name string
	msg  []byte
} {
	desc := func(path ...string) []byte {
		return marshalled(t, &flight.FlightDescriptor{Type: flight.DescriptorPATH, Path: path})
	}
	body := make([]byte, 100_000)
	for i := range body {
		body[i] = byte(i * 7)
	}
	return []struct {
		name string
		msg  []byte
	}{
		{"an empty message", nil},
		{"a record's header and body", marshalled(t, &flight.FlightData{DataHeader: []byte("header"), DataBody: body})},
		{"every field", marshalled(t, &flight.FlightData{
			FlightDescriptor: &flight.FlightDescriptor{Type: flight.DescriptorCMD, Cmd: []byte("cmd")},
			DataHeader:       []byte{1, 2, 3}, AppMetadata: []byte("meta"), DataBody: []byte("body"),
		})},
		{"empty bytes fields on the wire", wire(nil).bytes(2, nil).bytes(3, nil).bytes(1000, nil)},
		{"the body before the header", wire(nil).bytes(1000, []byte("body")).bytes(2, []byte("header"))},
		{"a repeated bytes field: the last wins", wire(nil).bytes(2, []byte("first")).bytes(2, []byte("second"))},
		{"a repeated descriptor: they merge", wire(nil).bytes(1, desc("a")).bytes(1, desc("b"))},
		{"unknown fields are kept", wire(nil).varint(7, 42).bytes(2, []byte("h")).bytes(999, []byte("x")).varint(5000, 1)},
		{"a known field of another wire type is an unknown field", wire(nil).varint(2, 5).varint(1000, 6)},
		{"a truncated tag", []byte{0x80}},
		{"a bytes field longer than the message", wire(nil).bytes(1000, []byte("body"))[:5]},
		{"a field number of zero", wire(nil).varint(0, 1)},
		{"a descriptor that is not one", wire(nil).bytes(1, []byte{0xff})},
		{"an end group without a start", protowire.AppendTag(nil, 9, protowire.EndGroupType)},
		{"a field number past the largest", protowire.AppendVarint(nil, uint64(protowire.MaxValidNumber+1)<<3)},
	}
}

// TestUnmarshalFlightDataAgreesWithProto: each message parses as
// proto.Unmarshal parses it, or fails where it fails.
func TestUnmarshalFlightDataAgreesWithProto(t *testing.T) {
	for _, tc := range codecCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			requireAgrees(t, tc.msg)
		})
	}
}

func requireAgrees(t *testing.T, msg []byte) {
	t.Helper()
	want := &flight.FlightData{}
	wantErr := proto.Unmarshal(msg, want)
	got := &flight.FlightData{DataBody: []byte("stale"), AppMetadata: []byte("stale")}
	err := unmarshalFlightData(append([]byte(nil), msg...), got)
	if wantErr != nil {
		require.Error(t, err, "proto refuses %x: %v", msg, wantErr)
		return
	}
	require.NoError(t, err, "%x", msg)
	require.True(t, proto.Equal(want, got), "%x:\n got %v\nwant %v", msg, got, want)
}

// TestUnmarshalFlightDataAgreesWithProtoOnMangledMessages: seeded
// mutations of well-formed messages — bytes flipped, cut short — parse as
// proto parses them. ARROWMAP_SEED=S runs the seed S a failure printed.
func TestUnmarshalFlightDataAgreesWithProtoOnMangledMessages(t *testing.T) {
	seed := uint64(rand.Int64())
	if s, err := strconv.ParseUint(os.Getenv("ARROWMAP_SEED"), 10, 64); err == nil {
		seed = s
	}
	t.Logf("seed %d (ARROWMAP_SEED=%[1]d reruns it)", seed)
	rng := rand.New(rand.NewPCG(seed, 16))
	var msgs [][]byte
	for _, tc := range codecCases(t) {
		if len(tc.msg) > 0 && len(tc.msg) < 1000 {
			msgs = append(msgs, tc.msg)
		}
	}
	for range 20_000 {
		msg := append([]byte(nil), msgs[rng.IntN(len(msgs))]...)
		for range 1 + rng.IntN(3) {
			msg[rng.IntN(len(msg))] = byte(rng.Uint32())
		}
		if rng.IntN(4) == 0 {
			msg = msg[:rng.IntN(len(msg)+1)]
		}
		requireAgrees(t, msg)
	}
}

// TestDataCodecAliasesOneCopyOfTheMessage: a message received in many
// buffers is one FlightData whose fields share one copy, each capped so an
// append to one cannot overwrite the next, and the buffers can be freed
// (gRPC frees them once Unmarshal returns).
func TestDataCodecAliasesOneCopyOfTheMessage(t *testing.T) {
	msg := marshalled(t, &flight.FlightData{DataHeader: []byte("header"), AppMetadata: []byte("meta"), DataBody: []byte("the body of it")})
	var data mem.BufferSlice
	for rest := msg; len(rest) > 0; {
		n := min(3, len(rest))
		data = append(data, mem.SliceBuffer(append([]byte(nil), rest[:n]...)))
		rest = rest[n:]
	}
	codec := dataCodec{encoding.GetCodecV2("proto")}
	got := &flight.FlightData{}
	require.NoError(t, codec.Unmarshal(data, got))
	data.Free()
	for i := range data {
		clear(data[i].ReadOnlyData()) // what a reused receive buffer would do
	}
	assert.Equal(t, "header", string(got.DataHeader))
	assert.Equal(t, "meta", string(got.AppMetadata))
	assert.Equal(t, "the body of it", string(got.DataBody))
	assert.Equal(t, len(got.DataHeader), cap(got.DataHeader))
	_ = append(got.DataHeader, 'x')
	assert.Equal(t, "meta", string(got.AppMetadata), "an append to the header leaves the next field be")

	// Any other message is the proto codec's.
	tkt := &flight.Ticket{Ticket: []byte("ticket")}
	sent, err := codec.Marshal(tkt)
	require.NoError(t, err)
	back := &flight.Ticket{}
	require.NoError(t, codec.Unmarshal(sent, back))
	assert.True(t, proto.Equal(tkt, back))
	assert.Equal(t, "proto", codec.Name(), "the content-subtype gRPC sends is proto's")
}
