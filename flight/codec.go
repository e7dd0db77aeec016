package flight

import (
	"fmt"
	"strings"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"google.golang.org/grpc"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// FlightData's fields, as Flight.proto numbers them.
const (
	fieldDescriptor  = 1
	fieldDataHeader  = 2
	fieldAppMetadata = 3
	fieldDataBody    = 1000
)

// dataCodec is gRPC's proto codec for a DoGet stream's messages but one
// copy lighter: gRPC's copies a message out of its receive buffers into a
// pooled buffer and protobuf copies each bytes field out of that, where
// dataCodec copies the message once and lets the FlightData's header and
// body alias that copy — the sidecar reading Flight.proto asks for. Every
// other message (the Ticket sent) is the proto codec's.
type dataCodec struct{ proto encoding.CodecV2 }

// callCodec is the call option of every DoGet of this package: it takes
// the place of a codec the caller's client forces for its calls, which
// for Flight's protobuf messages can only be proto's. It is empty when
// gRPC has no proto codec registered, which never happens with arrow-go's
// flight package linked.
var callCodec = func() []grpc.CallOption {
	c := encoding.GetCodecV2("proto")
	if c == nil {
		return nil
	}
	return []grpc.CallOption{grpc.ForceCodecV2(dataCodec{c})}
}()

func (c dataCodec) Name() string { return c.proto.Name() }

func (c dataCodec) Marshal(v any) (mem.BufferSlice, error) { return c.proto.Marshal(v) }

func (c dataCodec) Unmarshal(data mem.BufferSlice, v any) error {
	fd, ok := v.(*flight.FlightData)
	if !ok {
		return c.proto.Unmarshal(data, v)
	}
	// gRPC frees data when Unmarshal returns: the FlightData aliases a
	// copy of its own.
	return unmarshalFlightData(materialize(data), fd)
}

// materialize is data copied into one new slice, which, unlike
// data.Materialize's, is not zeroed first: a strings.Builder grows without
// zeroing, and these are megabytes a record, written once each. Nothing
// else sees the string built, so its bytes are the slice's to hand on.
func materialize(data mem.BufferSlice) []byte {
	n := data.Len()
	if n == 0 {
		return nil
	}
	var sb strings.Builder
	sb.Grow(n)
	for _, buf := range data {
		sb.Write(buf.ReadOnlyData())
	}
	s := sb.String()
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// unmarshalFlightData is proto.Unmarshal of b into fd, with fd's bytes
// fields aliasing b: as protobuf does, the last of a repeated bytes field
// wins, the descriptors are merged, and fields it does not know, or of
// another wire type than theirs, are kept as unknown fields.
func unmarshalFlightData(b []byte, fd *flight.FlightData) error {
	proto.Reset(fd)
	var unknown []byte
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return flightDataError(protowire.ParseError(n))
		}
		if num > protowire.MaxValidNumber {
			return flightDataError(fmt.Errorf("field number %d is out of range", num))
		}
		b = b[n:]
		var v []byte
		if typ == protowire.BytesType {
			switch num {
			case fieldDescriptor, fieldDataHeader, fieldAppMetadata, fieldDataBody:
				v, n = protowire.ConsumeBytes(b)
				if n < 0 {
					return flightDataError(protowire.ParseError(n))
				}
				v = v[:len(v):len(v)] // an append to one field must not run into the next
				b = b[n:]
				switch num {
				case fieldDescriptor:
					if fd.FlightDescriptor == nil {
						fd.FlightDescriptor = &flight.FlightDescriptor{}
					}
					if err := (proto.UnmarshalOptions{Merge: true}).Unmarshal(v, fd.FlightDescriptor); err != nil {
						return flightDataError(err)
					}
				case fieldDataHeader:
					fd.DataHeader = v
				case fieldAppMetadata:
					fd.AppMetadata = v
				case fieldDataBody:
					fd.DataBody = v
				}
				continue
			}
		}
		n = protowire.ConsumeFieldValue(num, typ, b)
		if n < 0 {
			return flightDataError(protowire.ParseError(n))
		}
		// As protobuf keeps it: the tag in its shortest form, the value as
		// it came.
		unknown = protowire.AppendTag(unknown, num, typ)
		unknown = append(unknown, b[:n]...)
		b = b[n:]
	}
	if len(unknown) > 0 {
		fd.ProtoReflect().SetUnknown(unknown)
	}
	return nil
}

// flightDataError is a message that is not a FlightData; gRPC reports it
// as an Internal status with this text.
func flightDataError(err error) error {
	return fmt.Errorf("arrowmap/flight: reading a FlightData message: %w", err)
}
