// Package cloud is the client of the workbook's fake cloud, the external system a finalizer cleans up (lab 07).
// The grader serves the cloud's bucket API over HTTP (src/workbook/fake-cloud/http-server.ts) and gives the
// program its address in WORKBOOK_CLOUD_URL; every call here is counted there, and its faults (a failed call,
// a cloud that is down, a slow answer) reach the program as they would from a real cloud SDK: an *Error with
// the HTTP status and the cloud's code.
package cloud

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
)

// EnvURL names the environment variable that holds the cloud's base URL (the grader sets it).
const EnvURL = "WORKBOOK_CLOUD_URL"

// Bucket is a bucket as the cloud reports it.
type Bucket struct {
	Name       string            `json:"name"`
	ID         string            `json:"id"` // assigned by the cloud: what a controller records in status.bucketId
	Region     string            `json:"region"`
	Versioning bool              `json:"versioning"`
	Tags       map[string]string `json:"tags,omitempty"`
	CreatedAt  string            `json:"createdAt"`
}

// Spec is what a caller asks for when creating a bucket (the spec of a workbook Bucket).
type Spec struct {
	Region     string            `json:"region"`
	Versioning bool              `json:"versioning,omitempty"`
	Tags       map[string]string `json:"tags,omitempty"`
}

// Error is a failed call: the HTTP status and the cloud's code (NotFound 404, AlreadyExists 409,
// InternalError 500, Unavailable 503, BadRequest 400).
type Error struct {
	Status  int
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return fmt.Sprintf("cloud: %d %s: %s", e.Status, e.Code, e.Message) }

// IsNotFound reports whether err is the cloud's 404: the bucket is not there (never made, or already deleted).
func IsNotFound(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == "NotFound"
}

// IsAlreadyExists reports whether err is the cloud's 409 on create: a bucket with that name exists already.
func IsAlreadyExists(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == "AlreadyExists"
}

// Client calls the cloud's bucket API.
type Client struct {
	base string
	http *http.Client
}

// New returns a client of the cloud at base (e.g. http://127.0.0.1:41234).
func New(base string) *Client { return &Client{base: base, http: &http.Client{}} }

// FromEnv returns a client of the cloud WORKBOOK_CLOUD_URL names.
func FromEnv() (*Client, error) {
	base := os.Getenv(EnvURL)
	if base == "" {
		return nil, fmt.Errorf("%s is not set: the grader sets it to its fake cloud's address", EnvURL)
	}
	return New(base), nil
}

// GetBucket reads the bucket called name; IsNotFound(err) when there is none.
func (c *Client) GetBucket(ctx context.Context, name string) (*Bucket, error) {
	var b Bucket
	if err := c.do(ctx, http.MethodGet, name, "", nil, &b); err != nil {
		return nil, err
	}
	return &b, nil
}

// CreateOptions are the choices a real SDK leaves to the caller of a create.
type CreateOptions struct {
	// ReturnExisting answers the existing bucket instead of AlreadyExists, so a create retried after a lost
	// answer succeeds (idempotent by name).
	ReturnExisting bool
}

// CreateBucket creates the bucket called name; IsAlreadyExists(err) when the name is taken (unless
// opts.ReturnExisting).
func (c *Client) CreateBucket(ctx context.Context, name string, spec Spec, opts CreateOptions) (*Bucket, error) {
	query := ""
	if opts.ReturnExisting {
		query = "ifExists=return"
	}
	var b Bucket
	if err := c.do(ctx, http.MethodPut, name, query, spec, &b); err != nil {
		return nil, err
	}
	return &b, nil
}

// DeleteBucket deletes the bucket called name and reports whether it deleted one; IsNotFound(err) when there
// is none (unless ignoreMissing, which answers false instead).
func (c *Client) DeleteBucket(ctx context.Context, name string, ignoreMissing bool) (bool, error) {
	query := ""
	if ignoreMissing {
		query = "ifMissing=ignore"
	}
	var out struct {
		Deleted bool `json:"deleted"`
	}
	err := c.do(ctx, http.MethodDelete, name, query, nil, &out)
	return out.Deleted, err
}

func (c *Client) do(ctx context.Context, method, name, query string, in, out any) error {
	target := c.base + "/v1/buckets/" + url.PathEscape(name)
	if query != "" {
		target += "?" + query
	}
	var body io.Reader
	if in != nil {
		data, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, body)
	if err != nil {
		return err
	}
	res, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	if res.StatusCode != http.StatusOK {
		e := &Error{Status: res.StatusCode}
		if json.Unmarshal(data, e) != nil || e.Code == "" {
			e.Code, e.Message = http.StatusText(res.StatusCode), string(data)
		}
		return e
	}
	return json.Unmarshal(data, out)
}
