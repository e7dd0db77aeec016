package bench

import (
	"sync"
	"testing"
)

// BenchmarkMachine measures how far two goroutines can scale on this
// machine at all, as the ceiling for Parallelism: a compute-bound loop, and
// a memory-bound pass over 256 MiB, each on one goroutine and split over
// two.
func BenchmarkMachine(b *testing.B) {
	big := make([]uint64, 32<<20)
	for _, kind := range []struct {
		name string
		work func(k, parts int)
	}{
		{"compute", func(k, parts int) { sink = spin(50_000_000 / parts) }},
		{"memory", func(k, parts int) { touch(big[k*len(big)/parts : (k+1)*len(big)/parts]) }},
	} {
		for _, parts := range []int{1, 2} {
			name := map[int]string{1: "/parallel1", 2: "/parallel2"}[parts]
			b.Run(kind.name+name, func(b *testing.B) {
				for b.Loop() {
					var wg sync.WaitGroup
					for k := range parts {
						wg.Go(func() { kind.work(k, parts) })
					}
					wg.Wait()
				}
			})
		}
	}
}

func spin(n int) uint64 {
	x := uint64(1)
	for range n {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

func touch(buf []uint64) {
	for i := range buf {
		buf[i] += uint64(i)
	}
}
