package rtm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// fake serves handler and answers a Client of it whose waits are recorded, not slept.
func fake(t *testing.T, handler http.HandlerFunc) (*Client, *[]time.Duration) {
	t.Helper()
	server := httptest.NewServer(handler)
	t.Cleanup(server.Close)
	c, err := NewClient(Options{URL: server.URL + "/", SecretKey: "sk_test"})
	if err != nil {
		t.Fatal(err)
	}
	var waits []time.Duration
	c.sleep = func(_ context.Context, d time.Duration) error {
		waits = append(waits, d)
		return nil
	}
	return c, &waits
}

func envelope(w http.ResponseWriter, status int, code, reason string) {
	w.Header().Set("content-type", "application/json")
	w.Header().Set("x-service-error", code)
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"code":%q,"reason":%q}`, code, reason)
}

func TestNewClientRefusesBadOptions(t *testing.T) {
	if _, err := NewClient(Options{URL: "localhost:8080", SecretKey: "sk_x"}); err == nil {
		t.Error("a URL without a scheme was accepted")
	}
	if _, err := NewClient(Options{URL: "http://localhost:8080", SecretKey: "pk_x"}); err == nil {
		t.Error("a publishable key was accepted")
	}
}

func TestErrorFromTheEnvelopeAndWithout(t *testing.T) {
	now := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	h := http.Header{}
	h.Set("retry-after", "3")
	e := errorFromResponse(429, h, []byte(`{"code":"rate_limited","reason":"slow down"}`), now)
	if e.Status != 429 || e.Code != "rate_limited" || e.Reason != "slow down" || e.RetryAfter != 3*time.Second || !e.Retryable() {
		t.Errorf("envelope: %+v", e)
	}
	if e.Error() != "429 rate_limited: slow down" {
		t.Errorf("message: %q", e.Error())
	}
	h = http.Header{}
	h.Set("x-service-error", "unavailable")
	h.Set("retry-after", now.Add(5*time.Second).Format(http.TimeFormat))
	e = errorFromResponse(503, h, []byte("<html>busy</html>"), now)
	if e.Code != "unavailable" || e.Reason != "<html>busy</html>" || e.RetryAfter != 5*time.Second {
		t.Errorf("header only: %+v", e)
	}
	e = errorFromResponse(502, http.Header{}, nil, now)
	if e.Code != "http_error" || e.Reason != "Bad Gateway" || e.Retryable() {
		t.Errorf("no envelope: %+v", e)
	}
	wrapped := fmt.Errorf("calling: %w", &Error{Status: 404, Code: "not_found"})
	if !IsCode(wrapped, "not_found") || IsCode(wrapped, "forbidden") || IsCode(errors.New("x"), "not_found") {
		t.Error("IsCode")
	}
}

func TestCallsSendTheKeyAndDecodeTheError(t *testing.T) {
	c, _ := fake(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("authorization") != "Bearer sk_test" || r.URL.Path != "/v1/channels/a%2Fb/bans/u%201" && r.URL.RawPath != "/v1/channels/a%2Fb/bans/u%201" {
			t.Errorf("request: %s %s %q", r.Method, r.URL.RawPath, r.Header.Get("authorization"))
		}
		envelope(w, 404, "not_found", "no ban")
	})
	ban, err := c.GetBan(context.Background(), "a/b", "u 1")
	if ban != nil || err != nil {
		t.Fatalf("GetBan of none: %v %v", ban, err)
	}
	_, err = c.Ban(context.Background(), "a/b", "u 1", nil)
	var e *Error
	if !errors.As(err, &e) || e.Status != 404 || e.Code != "not_found" || e.Reason != "no ban" {
		t.Fatalf("Ban: %v", err)
	}
}

func TestPagingFollowsCursors(t *testing.T) {
	c, _ := fake(t, func(w http.ResponseWriter, r *http.Request) {
		pages := map[string]string{
			"":   `{"data":[{"id":"we_1"},{"id":"we_2"}],"nextCursor":"c1"}`,
			"c1": `{"data":[{"id":"we_3"}],"nextCursor":"c2"}`,
			"c2": `{"data":[],"nextCursor":null}`,
		}
		if r.URL.Query().Get("limit") != "2" {
			t.Errorf("limit: %q", r.URL.RawQuery)
		}
		io.WriteString(w, pages[r.URL.Query().Get("cursor")])
	})
	all, err := c.AllWebhookEndpoints(2).Collect(context.Background())
	if err != nil || len(all) != 3 || all[2].ID != "we_3" {
		t.Fatalf("endpoints: %+v %v", all, err)
	}
}

func TestHistoryPagesBySeq(t *testing.T) {
	var afters []string
	c, _ := fake(t, func(w http.ResponseWriter, r *http.Request) {
		after := r.URL.Query().Get("after")
		afters = append(afters, after)
		switch after {
		case "0":
			io.WriteString(w, `{"messages":[{"id":"m1","seq":1},{"id":"m2","seq":2}],"hasMore":true}`)
		case "2":
			io.WriteString(w, `{"messages":[{"id":"m3","seq":3}],"hasMore":false}`)
		default:
			envelope(w, 400, "invalid_request", "after "+after)
		}
	})
	it := c.AllHistory("room", 0, 2)
	var seqs []int64
	for it.Next(context.Background()) {
		seqs = append(seqs, it.Value().Seq)
	}
	if it.Err() != nil || fmt.Sprint(seqs) != "[1 2 3]" || fmt.Sprint(afters) != "[0 2]" {
		t.Fatalf("seqs %v afters %v err %v", seqs, afters, it.Err())
	}
}

func TestPagingStopsAtAnError(t *testing.T) {
	c, _ := fake(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("cursor") == "" {
			io.WriteString(w, `{"data":[{"id":"d1"}],"nextCursor":"c1"}`)
			return
		}
		envelope(w, 403, "forbidden", "no")
	})
	all, err := c.AllDeliveries(nil).Collect(context.Background())
	if len(all) != 1 || !IsCode(err, "forbidden") {
		t.Fatalf("%+v %v", all, err)
	}
}

func TestRetries(t *testing.T) {
	var mu sync.Mutex
	var keys []string
	calls := map[string]int{}
	c, waits := fake(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		calls[r.Method+" "+r.URL.Path]++
		n := calls[r.Method+" "+r.URL.Path]
		switch r.URL.Path {
		case "/v1/channels/room/messages":
			var body map[string]any
			json.NewDecoder(r.Body).Decode(&body)
			keys = append(keys, fmt.Sprint(body["idempotencyKey"]))
			if n == 1 {
				envelope(w, 503, "unavailable", "owner timed out")
				return
			}
			w.WriteHeader(201)
			io.WriteString(w, `{"id":"msg_1","seq":7,"timestamp":1}`)
		case "/v1/tokens":
			if n == 1 {
				w.Header().Set("retry-after", "1")
				envelope(w, 429, "rate_limited", "slow")
				return
			}
			envelope(w, 503, "unavailable", "down")
		case "/v1/channels/room/occupancy":
			envelope(w, 503, "unavailable", "down")
		}
	})
	ctx := context.Background()
	published, err := c.Publish(ctx, "room", PublishMessageInput{Content: json.RawMessage(`{"a":1}`)})
	if err != nil || published.Message == nil || published.Message.Seq != 7 {
		t.Fatalf("publish: %+v %v", published, err)
	}
	if len(keys) != 2 || keys[0] != keys[1] || len(keys[0]) != 36 {
		t.Fatalf("the retried publish must carry the same generated key: %v", keys)
	}
	// a mint refused by 429 is retried (nothing was done); its 503 is not (it may have been)
	if _, err := c.MintToken(ctx, MintTokenInput{UserID: "ann"}); !IsCode(err, "unavailable") || calls["POST /v1/tokens"] != 2 {
		t.Fatalf("mint: %v after %d calls", err, calls["POST /v1/tokens"])
	}
	// a GET is retried twice, then the error is returned
	if _, err := c.Occupancy(ctx, "room"); !IsCode(err, "unavailable") || calls["GET /v1/channels/room/occupancy"] != 3 {
		t.Fatalf("occupancy: %v after %d calls", err, calls["GET /v1/channels/room/occupancy"])
	}
	if fmt.Sprint(*waits) != "[500ms 1s 500ms 1s]" {
		t.Fatalf("waits: %v", *waits)
	}
}

func TestNetworkErrorsRetryOnlyWhatIsSafe(t *testing.T) {
	calls := map[string]int{}
	c, _ := fake(t, func(w http.ResponseWriter, r *http.Request) {
		calls[r.Method]++
		if calls[r.Method] == 1 {
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close() // the answer is lost
			return
		}
		w.WriteHeader(201)
		io.WriteString(w, `{"members":[],"nextCursor":null,"token":"t","userId":"u","expiresAt":"2030-01-01T00:00:00.000Z"}`)
	})
	if _, err := c.Roster(context.Background(), "room", nil); err != nil || calls["GET"] != 2 {
		t.Fatalf("roster: %v after %d calls", err, calls["GET"])
	}
	if _, err := c.MintToken(context.Background(), MintTokenInput{UserID: "u"}); err == nil || calls["POST"] != 1 {
		t.Fatalf("mint: %v after %d calls", err, calls["POST"])
	}
}

func TestNullableSendsNullOrNothing(t *testing.T) {
	body, _ := json.Marshal(UpdateWebhookEndpointInput{Channels: Null[[]string](), RateLimitPerSecond: Some(int64(5))})
	if string(body) != `{"channels":null,"rateLimitPerSecond":5}` {
		t.Fatalf("%s", body)
	}
	q := (&ListDeliveriesParams{Status: Ptr(WebhookDeliveryStatusDropped), Limit: Ptr(int64(10))}).Values().Encode()
	if !strings.Contains(q, "status=dropped") || !strings.Contains(q, "limit=10") {
		t.Fatalf("%s", q)
	}
}

func TestContentIsSentByteForByte(t *testing.T) {
	var bodies []string
	c, _ := fake(t, func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		bodies = append(bodies, string(body))
		io.WriteString(w, `{"results":[]}`)
	})
	spaced := json.RawMessage(`{ "b": 1,  "a": "\"content\":0" }`)
	_, err := c.PublishBatch(context.Background(), []PublishBatchInputMessage{
		{ChannelID: "x", Content: spaced, IdempotencyKey: Ptr("k")},
		{ChannelID: "y", Content: json.RawMessage(`{"n":2}`), IdempotencyKey: Ptr("l")},
	})
	want := `{"messages":[{"channelId":"x","content":{ "b": 1,  "a": "\"content\":0" },"idempotencyKey":"k"},{"channelId":"y","content":{"n":2},"idempotencyKey":"l"}]}`
	if err != nil || len(bodies) != 1 || bodies[0] != want {
		t.Fatalf("%v\n%s\nwant\n%s", err, bodies, want)
	}
	if _, err := c.Publish(context.Background(), "x", PublishMessageInput{Content: json.RawMessage(`{"a":`)}); err == nil || len(bodies) != 1 {
		t.Fatalf("invalid content was sent: %v", err)
	}
}
