package main

import (
	"net/http"
	"sync"
)

// wireLog remembers what went over the wire: the protocol and content types of every response, so checks can
// report how the client actually talked to the server (HTTP/2 or 1.1, protobuf or JSON, aggregated discovery).
type wireLog struct {
	mu      sync.Mutex
	entries []wireEntry
}

type wireEntry struct {
	method, path, proto, requestType, responseType string
	status                                         int
}

func newWireLog() *wireLog { return &wireLog{} }

func (w *wireLog) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripperFunc(func(req *http.Request) (*http.Response, error) {
		resp, err := rt.RoundTrip(req)
		if err == nil {
			w.mu.Lock()
			w.entries = append(w.entries, wireEntry{
				method:       req.Method,
				path:         req.URL.Path,
				proto:        resp.Proto,
				requestType:  req.Header.Get("Content-Type"),
				responseType: resp.Header.Get("Content-Type"),
				status:       resp.StatusCode,
			})
			w.mu.Unlock()
		}
		return resp, err
	})
}

// since returns the entries logged after the first n.
func (w *wireLog) since(n int) []wireEntry {
	w.mu.Lock()
	defer w.mu.Unlock()
	if n > len(w.entries) {
		return nil
	}
	return append([]wireEntry(nil), w.entries[n:]...)
}

func (w *wireLog) len() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.entries)
}

type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }
