package flight

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/apache/arrow-go/v18/arrow/flight"
)

// pool is the clients one read has dialed, one per location URI: the
// endpoints at one location share its connection. A dial that failed is
// not tried again within the read.
type pool struct {
	dial  Dialer
	mu    sync.Mutex
	conns map[string]*pooledClient
}

// pooledClient is the dial of one URI: ready is closed once client or err
// is set.
type pooledClient struct {
	ready  chan struct{}
	client flight.Client
	err    error
}

func newPool(dial Dialer) *pool {
	return &pool{dial: dial, conns: map[string]*pooledClient{}}
}

// get is the client for uri, dialed by the first endpoint that asks for it;
// the others wait for that dial rather than open a connection of their own.
func (p *pool) get(ctx context.Context, uri string) (flight.Client, error) {
	p.mu.Lock()
	c, ok := p.conns[uri]
	if !ok {
		c = &pooledClient{ready: make(chan struct{})}
		p.conns[uri] = c
	}
	p.mu.Unlock()
	if !ok {
		c.client, c.err = p.dial(ctx, uri)
		switch {
		case c.err != nil:
			c.client, c.err = nil, fmt.Errorf("dialing: %w", c.err)
		case c.client == nil:
			c.err = errors.New("dialing: Source.Dial returned no client")
		}
		close(c.ready)
	}
	select {
	case <-c.ready:
		return c.client, c.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// close closes every client the pool dialed. No get may run during or
// after it.
func (p *pool) close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	var errs []error
	for uri, c := range p.conns {
		if c.client != nil {
			if err := c.client.Close(); err != nil {
				errs = append(errs, fmt.Errorf("closing %s: %w", uri, err))
			}
		}
		delete(p.conns, uri)
	}
	return errors.Join(errs...)
}
