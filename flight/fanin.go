package flight

import (
	"context"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arrowmap/arrowmap/internal/expansion"
)

// queueDepth is how many items one stream may have waiting for the
// consumer: enough to keep a stream busy while the consumer decodes, few
// enough that memory stays a small multiple of the streams.
const queueDepth = 2

// fanIn reads the n endpoints of a flight, each on a goroutine of its own
// and at most streams at once, and hands the items they read (records,
// pages) to one consumer, through queues of queueDepth items a stream.
//
// Unordered, the streams share one queue and items come as they arrive; a
// stream's slot is free again once it has read its endpoint. Ordered,
// every endpoint has its own queue, read one after another, and a slot is
// free again only once the consumer is done with the endpoint: reading
// ahead stays within streams endpoints, so memory stays bounded however
// slow the endpoint being consumed is.
//
// Nothing is read before the first next. next and stop are the
// consumer's, not safe for concurrent use.
type fanIn[M any] struct {
	ctx     context.Context
	cancel  context.CancelFunc
	n       int
	ordered bool
	// read reads endpoint i, handing each item to emit until emit reports
	// false; its error names the endpoint.
	read func(ctx context.Context, i int, emit func(M) bool) error
	// drop lets go of an item that is never handed on; nil for none.
	drop func(M)
	// done runs once every goroutine has returned; nil for nothing.
	done func()

	tokens chan struct{}        // a slot taken per endpoint being read
	shared chan message[M]      // unordered: every stream's queue
	order  chan chan message[M] // ordered: each endpoint's queue, in endpoint order
	failed atomic.Int64         // ordered: the first endpoint that failed
	wg     sync.WaitGroup       // the launcher and the streams

	// The consumer's.
	started bool
	cur     chan message[M] // ordered: the queue of the endpoint being consumed
	ends    int             // endpoints consumed to their end
	ended   bool
	err     error // the error that ended reading; nil for a clean end
}

// message is an item of one stream or, with end set, the end of its
// endpoint with err, its error or nil.
type message[M any] struct {
	item M
	end  bool
	err  error
}

func newFanIn[M any](ctx context.Context, n, streams int, ordered bool, read func(context.Context, int, func(M) bool) error, drop func(M)) *fanIn[M] {
	streams = max(1, min(streams, n))
	f := &fanIn[M]{n: n, ordered: ordered, read: read, drop: drop, tokens: make(chan struct{}, streams)}
	f.ctx, f.cancel = context.WithCancel(ctx)
	f.failed.Store(math.MaxInt64)
	if ordered {
		// Every queue in order holds a slot: it never has more than streams.
		f.order = make(chan chan message[M], streams)
	} else {
		f.shared = make(chan message[M], streams*queueDepth)
	}
	return f
}

// begin starts the streams that have a slot now, and a launcher for the
// others when there are more endpoints than slots.
func (f *fanIn[M]) begin() {
	f.started = true
	i := 0
	for ; i < f.n && f.tryTake(); i++ {
		f.start(i)
	}
	if i < f.n {
		f.wg.Add(1)
		go f.launch(i)
	}
}

func (f *fanIn[M]) tryTake() bool {
	select {
	case f.tokens <- struct{}{}:
		return true
	default:
		return false
	}
}

// launch starts the endpoints from on, in order, each once a slot is
// free.
func (f *fanIn[M]) launch(from int) {
	defer f.wg.Done()
	for i := from; i < f.n; i++ {
		select {
		case f.tokens <- struct{}{}:
		case <-f.ctx.Done():
			return
		}
		if int64(i) > f.failed.Load() {
			// Ordered, an endpoint after a failed one would never be
			// consumed.
			<-f.tokens
			return
		}
		f.start(i)
	}
}

func (f *fanIn[M]) start(i int) {
	q := f.shared
	if f.ordered {
		q = make(chan message[M], queueDepth)
		f.order <- q
	}
	f.wg.Add(1)
	go f.run(i, q)
}

// run reads endpoint i into q, then sends its end.
func (f *fanIn[M]) run(i int, q chan message[M]) {
	defer f.wg.Done()
	if !f.ordered {
		defer func() { <-f.tokens }()
	}
	send := func(m message[M]) bool {
		if f.ctx.Err() != nil {
			return false // already ended: a ready queue must not win the select below
		}
		select {
		case q <- m:
			return true
		case <-f.ctx.Done():
			return false
		}
	}
	err := f.read(f.ctx, i, func(item M) bool {
		if send(message[M]{item: item}) {
			return true
		}
		if f.drop != nil {
			f.drop(item)
		}
		return false
	})
	if err != nil && f.ordered {
		for {
			old := f.failed.Load()
			if int64(i) >= old || f.failed.CompareAndSwap(old, int64(i)) {
				break
			}
		}
	}
	send(message[M]{end: true, err: err})
}

// next is the next item, or false at the end, with f.err set to the error
// that ended reading: an endpoint's, or ctx's. The items that arrived
// before it are all handed on first; ordered, an endpoint's error comes
// after every item of the endpoints before it.
func (f *fanIn[M]) next() (M, bool) {
	var zero M
	if !f.started && !f.ended {
		f.begin()
	}
	for !f.ended {
		if f.ends == f.n {
			f.finish(nil)
			break
		}
		q := f.shared
		if f.ordered {
			if f.cur == nil {
				cur, ok := receive(f.ctx, f.order)
				if !ok {
					f.finish(f.ctxError())
					break
				}
				f.cur = cur
			}
			q = f.cur
		}
		m, ok := receive(f.ctx, q)
		switch {
		case !ok:
			f.finish(f.ctxError())
		case !m.end:
			return m.item, true
		case m.err != nil && f.ctxEnded():
			f.finish(f.ctxError()) // the stream ended because ctx did
		case m.err != nil:
			f.finish(expansion.SourceEnd(m.err))
		default:
			f.ends++
			if f.ordered {
				f.cur = nil
				<-f.tokens // the next endpoint may be read ahead
			}
		}
	}
	return zero, false
}

// receive takes the next value of ch, unless ctx has ended and ch has
// none ready: what arrived before ctx ended is still handed on.
func receive[X any](ctx context.Context, ch chan X) (X, bool) {
	select {
	case x := <-ch:
		return x, true
	case <-ctx.Done():
	}
	select {
	case x := <-ch:
		return x, true
	default:
		var zero X
		return zero, false
	}
}

// ctxEnded reports whether ctx has ended or its deadline has passed: gRPC
// hands the deadline on, so a server may end a stream for it before the
// caller's own timer has fired.
func (f *fanIn[M]) ctxEnded() bool {
	deadline, ok := f.ctx.Deadline()
	return f.ctx.Err() != nil || ok && !time.Now().Before(deadline)
}

func (f *fanIn[M]) ctxError() error {
	err := f.ctx.Err()
	if err == nil {
		err = context.DeadlineExceeded // its timer has not fired yet
	}
	return fmt.Errorf("arrowmap/flight: reading flight: %w", err)
}

// stop ends reading if it has not ended: every stream is cancelled and
// has returned when stop does.
func (f *fanIn[M]) stop() {
	if !f.ended {
		f.finish(nil)
	}
}

// finish ends reading with err: it cancels the streams, waits for every
// goroutine, lets go of the items still queued, then runs done.
func (f *fanIn[M]) finish(err error) {
	f.ended, f.err = true, err
	f.cancel()
	f.wg.Wait()
	f.dropQueued(f.shared)
	f.dropQueued(f.cur)
	f.cur = nil
	for more := true; more; {
		select {
		case q := <-f.order:
			f.dropQueued(q)
		default:
			more = false
		}
	}
	if f.done != nil {
		f.done()
	}
}

// dropQueued empties q, a queue no stream sends on any more; nil is an
// empty queue.
func (f *fanIn[M]) dropQueued(q chan message[M]) {
	for {
		select {
		case m := <-q:
			if !m.end && f.drop != nil {
				f.drop(m.item)
			}
		default:
			return
		}
	}
}
