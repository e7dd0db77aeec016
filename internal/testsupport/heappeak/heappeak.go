// Package heappeak samples the Go heap in use while something runs, for
// the benchmarks' peak-heap-MiB of the parquet package, the integration
// module and the duckdb module (and the parquet package's memory tests):
// one method, so that their figures compare.
package heappeak

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Sampler samples runtime.MemStats.HeapInuse every 2 ms from Start until
// Stop.
type Sampler struct {
	base, peak atomic.Uint64
	done       chan struct{}
	wg         sync.WaitGroup
}

// Start collects garbage, takes what is then in use as the base, and
// starts sampling.
func Start() *Sampler {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	s := &Sampler{done: make(chan struct{})}
	s.base.Store(ms.HeapInuse)
	s.peak.Store(ms.HeapInuse)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		var ms runtime.MemStats
		for {
			select {
			case <-s.done:
				return
			case <-tick.C:
				runtime.ReadMemStats(&ms)
				if ms.HeapInuse > s.peak.Load() {
					s.peak.Store(ms.HeapInuse)
				}
			}
		}
	}()
	return s
}

// Stop ends the sampling and returns the peak above the base, in bytes.
func (s *Sampler) Stop() int64 {
	close(s.done)
	s.wg.Wait()
	return int64(s.peak.Load()) - int64(s.base.Load())
}
