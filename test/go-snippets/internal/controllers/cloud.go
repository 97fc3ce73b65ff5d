package controllers

import (
	"context"
	"fmt"
	"sync"
)

// MemoryCloud is a fake cloud in the operator's memory, as src/fake-cloud is in the workbook's.
type MemoryCloud struct {
	mu      sync.Mutex
	next    int
	Buckets map[string]string // id -> region
}

// CreateBucket makes a bucket and returns its id.
func (c *MemoryCloud) CreateBucket(_ context.Context, region string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.Buckets == nil {
		c.Buckets = map[string]string{}
	}
	c.next++
	id := fmt.Sprintf("bkt-%d", c.next)
	c.Buckets[id] = region
	return id, nil
}

// DeleteBucket removes a bucket; an unknown id is already deleted.
func (c *MemoryCloud) DeleteBucket(_ context.Context, id string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.Buckets, id)
	return nil
}

// Count is how many buckets exist.
func (c *MemoryCloud) Count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.Buckets)
}
