package rtm

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Error is an answer of the control plane that is not 2xx, built from its error envelope
// {"code", "reason"}. Branch on Code (the service's error table), not on Status alone.
type Error struct {
	// Status is the HTTP status of the answer.
	Status int
	// Code is the envelope's code; "http_error" when the answer carried no envelope (a proxy in
	// between, for instance): Reason then holds the start of its body.
	Code string
	// Reason is the envelope's reason, when the service gave one.
	Reason string
	// RetryAfter is the answer's retry-after (429 rate_limited, 503 unavailable); 0 when not sent.
	RetryAfter time.Duration
	// Quota is the spent monthly quota of a 429 quota_exceeded (its limit, what was used, when
	// it resets); nil otherwise.
	Quota *QuotaRefusal
}

func (e *Error) Error() string {
	if e.Reason == "" {
		return fmt.Sprintf("%d %s", e.Status, e.Code)
	}
	return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Reason)
}

// Retryable reports a transient refusal: the same request may succeed later (after RetryAfter).
func (e *Error) Retryable() bool { return e.Code == "rate_limited" || e.Code == "unavailable" }

// IsCode reports whether err is (or wraps) an *Error with the given code.
func IsCode(err error, code string) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}

// errorFromResponse builds the *Error of a non-2xx answer whose body is body.
func errorFromResponse(status int, header http.Header, body []byte, now time.Time) *Error {
	e := &Error{Status: status, RetryAfter: parseRetryAfter(header.Get("retry-after"), now)}
	var envelope struct {
		Code   *string       `json:"code"`
		Reason *string       `json:"reason"`
		Quota  *QuotaRefusal `json:"quota"`
	}
	if json.Unmarshal(body, &envelope) == nil && envelope.Code != nil {
		e.Code = *envelope.Code
		e.Quota = envelope.Quota
		if envelope.Reason != nil {
			e.Reason = *envelope.Reason
		}
		return e
	}
	e.Code = header.Get("x-service-error")
	if e.Code == "" {
		e.Code = "http_error"
	}
	text := strings.TrimSpace(string(body))
	if len(text) > 200 {
		text = text[:200]
	}
	if text == "" {
		text = http.StatusText(status)
	}
	e.Reason = text
	return e
}

// parseRetryAfter reads retry-after as seconds or an HTTP date; 0 when absent or unreadable.
func parseRetryAfter(value string, now time.Time) time.Duration {
	value = strings.TrimSpace(value)
	if value == "" {
		return 0
	}
	if seconds, err := strconv.ParseUint(value, 10, 32); err == nil {
		return time.Duration(seconds) * time.Second
	}
	if at, err := http.ParseTime(value); err == nil && at.After(now) {
		return at.Sub(now).Round(time.Second)
	}
	return 0
}
