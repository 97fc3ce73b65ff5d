package main

import (
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
)

// requestCounter wraps the client's transport and counts what the informer asked the server for: plain LISTs,
// plain WATCHes and watch-list streams (sendInitialEvents=true), and the response bytes read.
type requestCounter struct {
	next      http.RoundTripper
	mu        sync.Mutex
	kinds     map[string]int
	bytesRead atomic.Int64
}

func newRequestCounter(next http.RoundTripper) *requestCounter {
	return &requestCounter{next: next, kinds: map[string]int{}}
}

func requestKind(r *http.Request) string {
	q := r.URL.Query()
	switch {
	case q.Get("watch") == "true" || q.Get("watch") == "1":
		if q.Get("sendInitialEvents") == "true" {
			return "watchlist"
		}
		return "watch"
	case strings.HasSuffix(r.URL.Path, "/configmaps"):
		return "list"
	default:
		return "other"
	}
}

func (c *requestCounter) RoundTrip(r *http.Request) (*http.Response, error) {
	c.mu.Lock()
	c.kinds[requestKind(r)]++
	c.mu.Unlock()
	res, err := c.next.RoundTrip(r)
	if err == nil && res.Body != nil {
		res.Body = &countingBody{ReadCloser: res.Body, n: &c.bytesRead}
	}
	return res, err
}

// snapshot returns the counts so far and resets them.
func (c *requestCounter) snapshot() (map[string]int, int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	kinds := c.kinds
	c.kinds = map[string]int{}
	return kinds, c.bytesRead.Swap(0)
}

type countingBody struct {
	io.ReadCloser
	n *atomic.Int64
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n.Add(int64(n))
	return n, err
}
