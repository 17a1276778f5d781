package policy

import (
	"hash/maphash"
	"sync"
)

// Cache bounds: cacheShards × cachePerShard decisions at most. A full shard
// is emptied, which keeps the cost of a miss constant and the memory bounded.
const (
	cacheShards   = 32
	cachePerShard = 2048
)

// cached is a decision with its rule as an index in Engine.table.
type cached struct {
	action Action
	errno  Errno
	rule   int32
}

type cacheKey struct {
	op   uint8 // opIndex
	path string
}

// opIndex numbers the operations for compact cache keys (Decide does not
// cache other operations).
func opIndex(op Op) uint8 {
	for i, o := range Ops {
		if o == op {
			return uint8(i + 1)
		}
	}
	return 0
}

type cacheShard struct {
	mu sync.RWMutex
	m  map[cacheKey]cached
}

// decisionCache is a sharded, bounded map from (op, path) to a decision.
type decisionCache struct {
	seed   maphash.Seed
	shards [cacheShards]cacheShard
}

func newDecisionCache() *decisionCache {
	c := &decisionCache{seed: maphash.MakeSeed()}
	for i := range c.shards {
		c.shards[i].m = make(map[cacheKey]cached)
	}
	return c
}

func (c *decisionCache) shard(path string) *cacheShard {
	return &c.shards[maphash.String(c.seed, path)%cacheShards]
}

func (c *decisionCache) get(op Op, path string) (cached, bool) {
	s := c.shard(path)
	s.mu.RLock()
	v, ok := s.m[cacheKey{opIndex(op), path}]
	s.mu.RUnlock()
	return v, ok
}

func (c *decisionCache) put(op Op, path string, v cached) {
	s := c.shard(path)
	s.mu.Lock()
	if len(s.m) >= cachePerShard {
		clear(s.m)
	}
	s.m[cacheKey{opIndex(op), path}] = v
	s.mu.Unlock()
}
