package recall

import (
	"container/heap"
	"math"
	"runtime"
	"slices"
	"sync"

	"gonum.org/v1/gonum/blas/blas32"
)

// vectorSet holds the chunks' vectors for exhaustive cosine search, all in
// one contiguous []float32 (row i is data[i*dim:(i+1)*dim]) so a query is one
// linear pass the CPU can prefetch. chromem-go did this job before; its
// query takes a lock per document and copies its document map every time,
// which cost 107–135 ms at 100k chunks against a 60 ms target — this layout
// scans 100k 384-wide vectors in well under half that.
type vectorSet struct {
	dim  int
	rows []int64 // chunk row of each vector
	data []float32
	// pos maps a chunk row to its index in rows. A set loaded from the index has
	// none (nil): its rows are in ascending order and found by binary search, as
	// a turn's few lookups need, instead of a map entry made for each of tens of
	// thousands of vectors. The first put or del makes it.
	pos map[int64]int
}

func (v *vectorSet) len() int { return len(v.rows) }

// put adds or replaces the vector of chunk row n; a vector of another width
// than the set's (a changed model not noticed yet) is ignored.
func (v *vectorSet) put(n int64, vec []float32) {
	if len(vec) == 0 {
		return
	}
	if v.dim == 0 {
		v.dim = len(vec)
	}
	if len(vec) != v.dim {
		return
	}
	v.index()
	if i, ok := v.pos[n]; ok {
		copy(v.data[i*v.dim:], vec)
		return
	}
	v.pos[n] = len(v.rows)
	v.rows = append(v.rows, n)
	v.data = append(v.data, vec...)
}

// del removes chunk row n's vector (the last one moves into its place).
func (v *vectorSet) del(n int64) {
	v.index()
	i, ok := v.pos[n]
	if !ok {
		return
	}
	last := len(v.rows) - 1
	if i != last {
		v.rows[i] = v.rows[last]
		v.pos[v.rows[i]] = i
		copy(v.data[i*v.dim:(i+1)*v.dim], v.data[last*v.dim:])
	}
	v.rows = v.rows[:last]
	v.data = v.data[:last*v.dim]
	delete(v.pos, n)
}

// getOrNil returns chunk row n's vector (nil when it has none, or v is nil).
func (v *vectorSet) getOrNil(n int64) []float32 {
	if v == nil {
		return nil
	}
	i, ok := v.find(n)
	if !ok {
		return nil
	}
	return v.data[i*v.dim : (i+1)*v.dim]
}

// find is the index in rows of chunk row n.
func (v *vectorSet) find(n int64) (int, bool) {
	if v.pos != nil {
		i, ok := v.pos[n]
		return i, ok
	}
	i, ok := slices.BinarySearch(v.rows, n)
	return i, ok
}

// index makes pos, for a change.
func (v *vectorSet) index() {
	if v.pos != nil {
		return
	}
	v.pos = make(map[int64]int, len(v.rows))
	for i, n := range v.rows {
		v.pos[n] = i
	}
}

type vecHit struct {
	row int64
	sim float32
}

// minHeap keeps the best k hits seen, the worst on top.
type minHeap []vecHit

func (h minHeap) Len() int           { return len(h) }
func (h minHeap) Less(i, j int) bool { return h[i].sim < h[j].sim }
func (h minHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *minHeap) Push(x any)        { *h = append(*h, x.(vecHit)) }
func (h *minHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// search returns the k vectors most similar to q (normalised, so the dot
// product is the cosine), best first. Big sets are split over the CPUs.
func (v *vectorSet) search(q []float32, k int) []vecHit {
	n := len(v.rows)
	if n == 0 || k <= 0 || len(q) != v.dim {
		return nil
	}
	parts := 1
	if n >= 20_000 {
		parts = min(runtime.GOMAXPROCS(0), 8)
	}
	heaps := make([]minHeap, parts)
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := p*n/parts, (p+1)*n/parts
		wg.Add(1)
		go func() {
			defer wg.Done()
			h := make(minHeap, 0, k+1)
			floor := float32(math.Inf(-1))
			for i := lo; i < hi; i++ {
				s := f32dot(q, v.data[i*v.dim:(i+1)*v.dim])
				if len(h) == k && s <= floor {
					continue
				}
				heap.Push(&h, vecHit{row: v.rows[i], sim: s})
				if len(h) > k {
					heap.Pop(&h)
				}
				if len(h) == k {
					floor = h[0].sim
				}
			}
			heaps[p] = h
		}()
	}
	wg.Wait()
	all := heaps[0]
	for _, h := range heaps[1:] {
		all = append(all, h...)
	}
	// Best first; ties by row so results are stable.
	out := []vecHit(all)
	sortHits(out)
	if len(out) > k {
		out = out[:k]
	}
	return out
}

func sortHits(h []vecHit) {
	for i := 1; i < len(h); i++ {
		for j := i; j > 0 && (h[j].sim > h[j-1].sim || h[j].sim == h[j-1].sim && h[j].row < h[j-1].row); j-- {
			h[j], h[j-1] = h[j-1], h[j]
		}
	}
}

// dot32 is the dot product, four lanes at a time.
func dot32(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}

// normalize scales v to unit length (a copy), so dot products are cosines.
func normalize(v []float32) []float32 {
	var n float64
	for _, f := range v {
		n += float64(f) * float64(f)
	}
	out := make([]float32, len(v))
	if n == 0 {
		return out
	}
	s := 1 / math.Sqrt(n)
	for i, f := range v {
		out[i] = float32(float64(f) * s)
	}
	return out
}

// f32dot is the dot product through gonum's BLAS, whose assembly does four
// or eight lanes at a time: the scan's inner loop.
func f32dot(a, b []float32) float32 {
	return blas32.Dot(blas32.Vector{N: len(a), Inc: 1, Data: a}, blas32.Vector{N: len(a), Inc: 1, Data: b[:len(a)]})
}
