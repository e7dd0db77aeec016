package flight

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/arrowmap/arrowmap/internal/expansion"
	"github.com/arrowmap/arrowmap/mapper"
)

// Stream returns a Reader of the rows of one DoGet stream: the
// records the server sends for ticket, as values of T. The schema is checked
// against T, as mapper.New does, before any row is read. Releasing the
// Reader ends the stream, read to its end or not.
//
// The end of the stream is the Reader's: io.EOF itself from Read, no error
// from All or Pages. A stream that ends before its schema, or that the
// ipc reader finds cut short, is an error that is io.ErrUnexpectedEOF and
// not io.EOF (see expansion.SourceEnd). A Flight stream has no end marker
// of its own: one that ends cleanly after its schema is an empty result.
//
// opts are mapper.NewReader's options, and mapper.Allocator for the
// records read (memory.DefaultAllocator without it).
func Stream[T any](ctx context.Context, client flight.Client, ticket *flight.Ticket, opts ...ReadOption) (*mapper.Reader[T], error) {
	c, err := parseRead("flight.Stream", opts, nil)
	if err != nil {
		return nil, err
	}
	return stream[T](ctx, client, ticket, c)
}

func stream[T any](ctx context.Context, client flight.Client, ticket *flight.Ticket, c *readCall) (*mapper.Reader[T], error) {
	if ticket == nil {
		return nil, errors.New("arrowmap/flight: nil flight ticket")
	}
	if client == nil {
		return nil, errors.New("arrowmap/flight: nil flight client")
	}
	s, err := newOpenStream(ctx, client, ticket, c.alloc, c.ratio)
	if err != nil {
		return nil, expansion.SourceEnd(fmt.Errorf("arrowmap/flight: %w", err))
	}
	return rowsOf[T](s, c)
}

// rowsOf is the Reader of the rows of s, which it owns from then on.
func rowsOf[T any](s *openStream, c *readCall) (*mapper.Reader[T], error) {
	rr := &streamRecords{RecordReader: s.Reader, stream: s}
	rr.refs.Store(1)
	defer rr.Release() // the Reader retains its own reference
	return mapper.NewReader[T](rr, c.mapper...)
}

// streamRecords is a Flight record reader that ends its gRPC stream when
// the last reference is released.
type streamRecords struct {
	array.RecordReader
	stream *openStream
	refs   atomic.Int64
}

func (r *streamRecords) Retain() { r.refs.Add(1) }

func (r *streamRecords) Release() {
	if r.refs.Add(-1) == 0 {
		r.stream.close()
	}
}

// OwnedPages reads every endpoint of info, each at one of its locations
// as OpenRecords reads it, at most src.Streams at once, and yields the
// rows as pages of up to pageSize values of T as they are decoded. Each
// page is a fresh slice the caller owns and may keep, unlike the reused
// page of mapper.Reader.Pages.
//
// The pages of one endpoint come in its order, every page full but its
// last; the pages of different endpoints interleave in no set order,
// whatever info.Ordered says. Each endpoint's schema is checked against T
// before its rows are read. The first error (an endpoint's, named by its
// index and location, an endpoint expired before its read started
// (ErrExpired), or ctx's) is yielded last and ends the sequence; a clean
// end of every endpoint yields no error. An endpoint cut short is an error
// that is io.ErrUnexpectedEOF, never one that wraps io.EOF (see
// expansion.SourceEnd):
//
//	src := amflight.Source{Client: client, Dial: dial}
//	for page, err := range amflight.OwnedPages[Row](ctx, src, info, 1024) {
//		if err != nil {
//			return err
//		}
//		rows = append(rows, page...) // the caller's to keep
//	}
//
// When the sequence ends — at the end, on an error, or when the caller
// stops early — the other streams are cancelled, and the goroutines have
// all returned, and the connections dialed closed, before the loop over
// the sequence does. Each range over the sequence reads the endpoints
// anew.
//
// OwnedPages took a bare flight.Client once, and read every endpoint
// through it, whatever its Locations said, all at once; it now reads them
// where they live, as Open does: src.Client for the endpoints at the
// server info came from, src.Dial for the others.
//
// opts are Open's but mapper.ZeroCopy: the pages outlive the records they
// come from. They are checked when OwnedPages is called, with its other
// arguments: an option it does not take (an ErrOption *mapper.Error
// naming it), a page size that is not positive, a nil info, a negative
// src.Streams or an endpoint without a ticket make a sequence that yields
// that error alone, and reads nothing.
func OwnedPages[T any](ctx context.Context, src Source, info *flight.FlightInfo, pageSize int, opts ...ReadOption) iter.Seq2[[]T, error] {
	c, err := parseRead("flight.OwnedPages", opts, notZeroCopy)
	streams := src.Streams
	switch {
	case err != nil:
	case pageSize <= 0:
		err = fmt.Errorf("arrowmap/flight: page size %d is not positive", pageSize)
	default:
		streams, err = checkFlight(src, info)
	}
	if err != nil {
		return func(yield func([]T, error) bool) { yield(nil, err) }
	}
	return func(yield func([]T, error) bool) {
		e := &endpoints{src: src, info: info, alloc: c.alloc, ratio: c.ratio, pool: newPool(src.Dial)}
		f := newFanIn(ctx, len(info.Endpoint), streams, false, func(ctx context.Context, i int, emit func([]T) bool) error {
			s, err := e.open(ctx, i)
			if err != nil {
				return err // the fan-in ends the read with it, through expansion.SourceEnd
			}
			at := s.at
			if err := readPages(s, pageSize, c, emit); err != nil {
				return fmt.Errorf("arrowmap/flight: flight endpoint %d at %s: %w", i, at, err)
			}
			return nil
		}, nil)
		f.done = e.close
		defer f.stop() // the goroutines have all returned when it does
		for {
			page, ok := f.next()
			if !ok {
				break
			}
			if !yield(page, nil) {
				return
			}
		}
		if f.err != nil {
			yield(nil, f.err)
		}
	}
}

// readPages reads the rows of s, which it owns, handing each page to emit
// until emit reports false.
func readPages[T any](s *openStream, pageSize int, c *readCall, emit func([]T) bool) error {
	rdr, err := rowsOf[T](s, c)
	if err != nil {
		return err
	}
	defer rdr.Release()
	var page []T
	for {
		if page == nil {
			page = make([]T, pageSize)
		}
		n, err := rdr.Read(page)
		if n > 0 {
			if !emit(page[:n:n]) {
				return nil
			}
			page = nil // the caller keeps it
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
