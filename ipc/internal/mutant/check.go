package mutant

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"runtime/debug"

	"github.com/apache/arrow-go/v18/arrow/flight"
	amflight "github.com/arrowmap/arrowmap/flight"
	"github.com/arrowmap/arrowmap/internal/testsupport/mutation"
	"github.com/arrowmap/arrowmap/ipc"
	"github.com/arrowmap/arrowmap/mapper"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
)

// Paths are the names of the paths Check reads a file through, those of
// Flight reading the messages of the file served as FlightData.
var (
	Paths       = []string{"ReadFile", "Open+Pages", "Open+All", "OpenColumns", "OpenRecords", "OpenReaderAt+ReadAll", "NewReader+Read"}
	FlightPaths = []string{"flight.Stream+ReadAll", "flight.Open+ReadAll", "flight.OwnedPages", "flight.OpenRecords"}
)

// Check reads the IPC file or stream at path, of the kind of rows kind,
// through every path of package ipc (NewReader only for a stream: it
// takes no file) and of package flight, from an in-process Flight server
// on 127.0.0.1 serving its messages as FlightData. A typed kind is read
// as its rows, and its id column by OpenColumns (but runs, whose id is
// run-end encoded); "records" as rows of no field, every record loaded.
func Check(path, kind string) (Verdict, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Verdict{}, err
	}
	at := 0
	if bytes.HasPrefix(data, fileMagic) {
		at = 8
	}
	served, clean := stream(data, at)
	v := Verdict{Rows: pathRows(data), ServedRows: -1}
	if clean {
		v.ServedRows = streamRows(served)
	}
	srv, client, err := serve(data, served, clean)
	if err != nil {
		return Verdict{}, err
	}
	defer srv.Stop()
	defer client.Close()
	c := &checker{v: &v, path: path, data: data, client: client}
	switch kind {
	case "flat":
		checkRows[Flat](c)
	case "nested":
		checkRows[Nested](c)
	case "lists":
		checkRows[Lists](c)
	case "maps":
		checkRows[Maps](c)
	case "dict":
		checkRows[Dict](c)
	case "views":
		checkRows[Views](c)
	case "runs":
		checkRows[Runs](c)
	case "records":
		checkRows[struct{}](c)
	default:
		return Verdict{}, fmt.Errorf("no kind of seed %q", kind)
	}
	return v, nil
}

// pathRows is the rows the headers of data state, as the readers by path
// read it: the record batches its footer lists for a file, its messages
// for a stream; -1 when they do not hold.
func pathRows(data []byte) int64 {
	if bytes.HasPrefix(data, fileMagic) {
		return readFile(data).fileRows()
	}
	msgs, clean := stream(data, 0)
	if !clean {
		return -1
	}
	return streamRows(msgs)
}

type checker struct {
	v      *Verdict
	path   string
	data   []byte
	client flight.Client
}

// run reads one path, its panic on the calling goroutine an outcome.
func (c *checker) run(name string, served bool, f func() (int64, error)) {
	o := Outcome{Path: name, Served: served}
	func() {
		defer func() {
			if p := recover(); p != nil {
				o.Panic = fmt.Sprintf("%v\n%s", p, debug.Stack())
			}
		}()
		n, err := f()
		o.Rows = n
		if err != nil {
			o.Err = err.Error()
		}
	}()
	c.v.Paths = append(c.v.Paths, o)
}

func checkRows[T any](c *checker) {
	c.run("ReadFile", false, func() (int64, error) {
		rows, err := ipc.ReadFile[T](c.path)
		return int64(len(rows)), err
	})
	c.run("Open+Pages", false, func() (int64, error) {
		r, err := ipc.Open[T](c.path)
		if err != nil {
			return 0, err
		}
		defer r.Release()
		var n int64
		for page, err := range r.Pages(50) {
			if err != nil {
				return n, err
			}
			n += int64(len(page))
		}
		return n, nil
	})
	c.run("Open+All", false, func() (int64, error) {
		r, err := ipc.Open[T](c.path)
		if err != nil {
			return 0, err
		}
		defer r.Release()
		var n int64
		for _, err := range r.All() {
			if err != nil {
				return n, err
			}
			n++
		}
		return n, nil
	})
	// idColumns reads a plain id: not that of Runs, nor records of any
	// schema.
	var zero T
	switch any(zero).(type) {
	case struct{}, Runs:
	default:
		c.run("OpenColumns", false, func() (int64, error) {
			r, err := ipc.OpenColumns[idColumns](c.path)
			if err != nil {
				return 0, err
			}
			defer r.Release()
			var n int64
			for r.Next() {
				n += int64(r.Columns().ID.Len())
			}
			return n, r.Err()
		})
	}
	c.run("OpenRecords", false, func() (int64, error) {
		rr, err := ipc.OpenRecords(c.path)
		if err != nil {
			return 0, err
		}
		return recordRows(rr)
	})
	c.run("OpenReaderAt+ReadAll", false, func() (int64, error) {
		r, err := ipc.OpenReaderAt[T](bytes.NewReader(c.data), int64(len(c.data)))
		if err != nil {
			return 0, err
		}
		defer r.Release()
		rows, err := r.ReadAll()
		return int64(len(rows)), err
	})
	if !bytes.HasPrefix(c.data, fileMagic) {
		c.run("NewReader+Read", false, func() (int64, error) {
			r, err := ipc.NewReader[T](bytes.NewReader(c.data))
			if err != nil {
				return 0, err
			}
			defer r.Release()
			return mutation.ReadRows[T](r, 64)
		})
	}
	ctx := context.Background()
	tkt := &flight.Ticket{Ticket: []byte("mutant")}
	info := &flight.FlightInfo{Endpoint: []*flight.FlightEndpoint{{Ticket: tkt}}, TotalRecords: -1}
	readAll := func(r *mapper.Reader[T], err error) (int64, error) {
		if err != nil {
			return 0, err
		}
		defer r.Release()
		rows, err := r.ReadAll()
		return int64(len(rows)), err
	}
	c.run("flight.Stream+ReadAll", true, func() (int64, error) {
		return readAll(amflight.Stream[T](ctx, c.client, tkt))
	})
	c.run("flight.Open+ReadAll", true, func() (int64, error) {
		return readAll(amflight.Open[T](ctx, amflight.Source{Client: c.client}, info))
	})
	c.run("flight.OwnedPages", true, func() (int64, error) {
		var n int64
		for page, err := range amflight.OwnedPages[T](ctx, amflight.Source{Client: c.client}, info, 50) {
			if err != nil {
				return n, err
			}
			n += int64(len(page))
		}
		return n, nil
	})
	c.run("flight.OpenRecords", true, func() (int64, error) {
		rr, err := amflight.OpenRecords(ctx, amflight.Source{Client: c.client}, info)
		if err != nil {
			return 0, err
		}
		return recordRows(rr)
	})
}

// relay is a Flight server that answers every DoGet with msgs of data,
// each as one FlightData, then, unless they ended cleanly, an error: what
// a server relaying a stream it could not read whole sends.
type relay struct {
	flight.BaseFlightServer
	data  []byte
	msgs  []message
	clean bool
}

func (s *relay) DoGet(_ *flight.Ticket, fs flight.FlightService_DoGetServer) error {
	for _, m := range s.msgs {
		fd := &flight.FlightData{DataHeader: s.data[m.meta.start:m.meta.end], DataBody: s.data[m.body.start:m.body.end]}
		if err := fs.Send(fd); err != nil {
			return err
		}
	}
	if !s.clean {
		return status.Error(codes.DataLoss, "the stream relayed does not hold past its last message")
	}
	return nil
}

// serve starts a relay of msgs of data on a loopback port, and a client
// of it.
func serve(data []byte, msgs []message, clean bool) (*grpc.Server, flight.Client, error) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, err
	}
	srv := grpc.NewServer()
	flight.RegisterFlightServiceServer(srv, &relay{data: data, msgs: msgs, clean: clean})
	go func() { _ = srv.Serve(lis) }()
	client, err := flight.NewClientWithMiddleware(lis.Addr().String(), nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		srv.Stop()
		return nil, nil, errors.Join(err, lis.Close())
	}
	return srv, client, nil
}
