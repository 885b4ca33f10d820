package rtm

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Options configure a Client.
type Options struct {
	// URL is the base URL of the control plane, e.g. "https://control.example.com" (no path).
	URL string
	// SecretKey is the environment's secret key "sk_…". Server-side only: never ship it.
	SecretKey string
	// HTTPClient sends the requests (default: a client with a 30 s timeout).
	HTTPClient *http.Client
	// Retries is how many times a request is tried again after a 429 rate_limited, and, for a
	// request that is safe to repeat, after a 503 unavailable or a network error: 0 means 2,
	// a negative number means never. A request is safe to repeat when it is a GET, PUT or
	// DELETE, or a publish carrying an idempotency key: while retries are on, a persisted
	// publish without one is given a random one, so a retry after an unknown outcome cannot
	// publish twice.
	Retries int
	// MaxRetryDelay is the longest wait before one retry (default 10 s): a longer retry-after is
	// not waited for, its *Error is returned at once.
	MaxRetryDelay time.Duration
	// Header is sent with every request (e.g. tracing).
	Header http.Header
}

// Client calls the control plane with a secret key. It is safe for concurrent use.
type Client struct {
	base       string
	secretKey  string
	http       *http.Client
	retries    int
	maxDelay   time.Duration
	header     http.Header
	sleep      func(ctx context.Context, d time.Duration) error
	now        func() time.Time
	randomUUID func() string
}

// NewClient checks the options and returns a Client.
func NewClient(options Options) (*Client, error) {
	parsed, err := url.Parse(options.URL)
	if err != nil || (parsed.Scheme != "http" && parsed.Scheme != "https") || parsed.Host == "" {
		return nil, fmt.Errorf("rtm: URL must be the http(s) base URL of the control plane, got %q", options.URL)
	}
	if !strings.HasPrefix(options.SecretKey, "sk_") {
		return nil, errors.New("rtm: SecretKey must be a secret key (sk_…)")
	}
	c := &Client{
		base:       strings.TrimRight(options.URL, "/"),
		secretKey:  options.SecretKey,
		http:       options.HTTPClient,
		retries:    options.Retries,
		maxDelay:   options.MaxRetryDelay,
		header:     options.Header.Clone(),
		sleep:      sleepContext,
		now:        time.Now,
		randomUUID: randomUUID,
	}
	if c.http == nil {
		c.http = &http.Client{Timeout: 30 * time.Second}
	}
	if c.retries == 0 {
		c.retries = 2
	} else if c.retries < 0 {
		c.retries = 0
	}
	if c.maxDelay == 0 {
		c.maxDelay = 10 * time.Second
	}
	return c, nil
}

// request is one call: method, path (already escaped), query, JSON body; idempotent says a
// repeat cannot do the work twice (so a 503 or a lost answer may be retried).
type request struct {
	method     string
	path       string
	query      url.Values
	body       any
	encoded    []byte // the body already encoded (used instead of body)
	idempotent bool
}

// do sends r, retrying as the options say, and decodes a 2xx answer's JSON into out (when not
// nil). It returns the answer's status.
func (c *Client) do(ctx context.Context, r request, out any) (int, error) {
	payload := r.encoded
	if payload == nil && r.body != nil {
		var err error
		if payload, err = json.Marshal(r.body); err != nil {
			return 0, fmt.Errorf("rtm: encoding the request body: %w", err)
		}
	}
	target := c.base + r.path
	if len(r.query) > 0 {
		target += "?" + r.query.Encode()
	}
	idempotent := r.idempotent || r.method == http.MethodGet || r.method == http.MethodPut || r.method == http.MethodDelete
	for attempt := 0; ; attempt++ {
		status, header, body, err := c.send(ctx, r.method, target, payload)
		if err != nil {
			// a network error: the request may or may not have been done
			if ctx.Err() != nil || !idempotent || attempt >= c.retries {
				return 0, err
			}
			if err := c.sleep(ctx, c.backoff(attempt)); err != nil {
				return 0, err
			}
			continue
		}
		if status >= 200 && status < 300 {
			if out != nil && len(body) > 0 {
				if err := json.Unmarshal(body, out); err != nil {
					return status, fmt.Errorf("rtm: decoding the answer of %s %s: %w", r.method, r.path, err)
				}
			}
			return status, nil
		}
		failure := errorFromResponse(status, header, body, c.now())
		// 429 rate_limited refused the request before doing it (a spent monthly quota, 429
		// quota_exceeded, is not tried again); a 503 may have come after doing it
		again := (status == http.StatusTooManyRequests && failure.Code == "rate_limited") || (status == http.StatusServiceUnavailable && idempotent)
		if !again || attempt >= c.retries {
			return status, failure
		}
		delay := failure.RetryAfter
		if delay == 0 {
			delay = c.backoff(attempt)
		}
		if delay > c.maxDelay {
			return status, failure
		}
		if err := c.sleep(ctx, delay); err != nil {
			return status, failure
		}
	}
}

// call is do for an answer decoded into a new T (nil with the error).
func call[T any](ctx context.Context, c *Client, r request) (*T, error) {
	var out T
	if _, err := c.do(ctx, r, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

func (c *Client) send(ctx context.Context, method, target string, payload []byte) (int, http.Header, []byte, error) {
	var body io.Reader
	if payload != nil {
		body = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, body)
	if err != nil {
		return 0, nil, nil, fmt.Errorf("rtm: %w", err)
	}
	for name, values := range c.header {
		req.Header[name] = append([]string(nil), values...)
	}
	req.Header.Set("Authorization", "Bearer "+c.secretKey)
	req.Header.Set("Accept", "application/json")
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := c.http.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer res.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(res.Body, 32<<20))
	if err != nil {
		return 0, nil, nil, err
	}
	return res.StatusCode, res.Header, answer, nil
}

// backoff is the wait before retry number attempt+1 without a retry-after: 0.5 s, 1 s, 2 s, …
func (c *Client) backoff(attempt int) time.Duration {
	return 500 * time.Millisecond << attempt
}

func sleepContext(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

// randomUUID is a version 4 UUID (crypto/rand), the idempotency key of a publish.
func randomUUID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("rtm: crypto/rand failed: " + err.Error())
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// path joins segments, escaping each one: path("v1", "channels", id) is "/v1/channels/<id>".
func path(segments ...string) string {
	var b strings.Builder
	for _, s := range segments {
		b.WriteByte('/')
		b.WriteString(url.PathEscape(s))
	}
	return b.String()
}

func decodeInto(raw []byte, out any) error {
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("rtm: decoding the answer: %w", err)
	}
	return nil
}
