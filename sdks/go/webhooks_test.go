package rtm

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// Vectors signed by the service's own signer (libs/webhooks: signatureHeader, standardHeaders)
// with two secrets, the newer (base64url, as older secrets were) first.
const (
	vectorBody    = `{"id":"msg_01","type":"message.published","data":{"content":{"text":"héllo"}}}`
	vectorOld     = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwAAAAAAAAAAAA"
	vectorNew     = "whsec_c2VjcmV0LXR3by1mb3ItdGhlLXJvdGF0aW9uLXRlc3Q-_w"
	vectorOwn     = "t=1700000000,v1=553427f4e1f56499fa4fe0099858d6c06521c55b42fbf9c55cfec1805689a7d3,v1=0dfbce3a43f389c3bcb549fd3b323b2c63f78b20a67a6f2cab9ce9456fb0c2b7"
	vectorStdSigs = "v1,ciFRpXPf5dJ5mH8+G7+Cvn9PG+8mEZSbxy/nKkZREHA= v1,MXAn2kxDhXXEV68KZnPzYiw1CPt9Xv3qqgotKqSvO8U="
)

var at = &VerifyOptions{Now: func() time.Time { return time.Unix(1700000100, 0) }}

func ownHeader() http.Header {
	h := http.Header{}
	h.Set(SignatureHeader, vectorOwn)
	return h
}

func standardHeader() http.Header {
	h := http.Header{}
	h.Set(WebhookIDHeader, "msg_01")
	h.Set(WebhookTimestampHeader, "1700000000")
	h.Set(WebhookSignatureHeader, vectorStdSigs)
	return h
}

func reason(err error) string {
	var v *WebhookVerificationError
	if errors.As(err, &v) {
		return v.Reason
	}
	if err == nil {
		return "ok"
	}
	return "other: " + err.Error()
}

func TestVerifyBothSchemesWithEitherSecret(t *testing.T) {
	for _, secret := range []string{vectorOld, vectorNew} {
		if err := VerifyWebhook([]byte(vectorBody), ownHeader(), secret, at); err != nil {
			t.Errorf("service-signature, %s: %v", secret, err)
		}
		if err := VerifyWebhook([]byte(vectorBody), standardHeader(), secret, at); err != nil {
			t.Errorf("standard webhooks, %s: %v", secret, err)
		}
	}
}

func TestVerifyRefusals(t *testing.T) {
	altered := []byte(strings.Replace(vectorBody, "héllo", "hello", 1))
	cases := []struct {
		name   string
		body   []byte
		header http.Header
		secret string
		opts   *VerifyOptions
		want   string
	}{
		{"altered body, own scheme", altered, ownHeader(), vectorOld, at, "signature mismatch"},
		{"altered body, standard scheme", altered, standardHeader(), vectorOld, at, "signature mismatch"},
		{"other secret", []byte(vectorBody), ownHeader(), "whsec_other", at, "signature mismatch"},
		{"other secret, standard", []byte(vectorBody), standardHeader(), "whsec_b3RoZXI=", at, "signature mismatch"},
		{"too late", []byte(vectorBody), ownHeader(), vectorOld, &VerifyOptions{Now: func() time.Time { return time.Unix(1700000301, 0) }}, "timestamp outside the tolerance"},
		{"too late, standard", []byte(vectorBody), standardHeader(), vectorOld, &VerifyOptions{Now: func() time.Time { return time.Unix(1699999699, 0) }}, "timestamp outside the tolerance"},
		{"no headers", []byte(vectorBody), http.Header{}, vectorOld, at, "missing webhook-id, webhook-timestamp or webhook-signature header"},
	}
	for _, c := range cases {
		if got := reason(VerifyWebhook(c.body, c.header, c.secret, c.opts)); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	headerCases := map[string]string{
		"":                           "missing signature header",
		"v1=abc":                     "no t in signature header",
		"t=1700000000":               "no v1 in signature header",
		"t=17e8,v1=00":               "malformed t",
		"t=1700000000,v1=" + "00":    "signature mismatch",
		"t=1700000000 ,v1=553427f4e": "signature mismatch",
	}
	for header, want := range headerCases {
		if got := reason(VerifySignature([]byte(vectorBody), header, vectorOld, at)); got != want {
			t.Errorf("header %q: %q, want %q", header, got, want)
		}
	}
}

func TestWebhookHandler(t *testing.T) {
	var seen []*WebhookEvent
	server := httptest.NewServer(WebhookHandler(vectorOld, at, func(_ *http.Request, e *WebhookEvent) error {
		seen = append(seen, e)
		return nil
	}))
	defer server.Close()
	post := func(body string, header http.Header) int {
		req, _ := http.NewRequest(http.MethodPost, server.URL, strings.NewReader(body))
		for k, v := range header {
			req.Header[k] = v
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if status := post(vectorBody, standardHeader()); status != http.StatusNoContent {
		t.Fatalf("a signed delivery: %d", status)
	}
	if status := post(vectorBody+" ", ownHeader()); status != http.StatusUnauthorized {
		t.Fatalf("an altered delivery: %d", status)
	}
	if len(seen) != 1 || seen[0].ID != "msg_01" || seen[0].Type != "message.published" {
		t.Fatalf("events handled: %+v", seen)
	}
	message, err := seen[0].Message()
	if err != nil || string(message.Content) != `{"text":"héllo"}` {
		t.Fatalf("message: %+v %v", message, err)
	}
}
