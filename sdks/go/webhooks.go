package rtm

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The headers of a webhook delivery. Every delivery carries two signatures over the same bytes:
// SignatureHeader (`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the whole
// secret string), and the Standard Webhooks headers (`webhook-signature: v1,<base64 HMAC-SHA256
// of "<id>.<timestamp>.<body>">`, keyed with the base64-decoded part after "whsec_"). After a
// rotation each carries one signature per secret for 24 h; any match is enough.
const (
	SignatureHeader          = "service-signature"
	WebhookIDHeader          = "webhook-id"
	WebhookTimestampHeader   = "webhook-timestamp"
	WebhookSignatureHeader   = "webhook-signature"
	DefaultWebhookTolerance  = 300 * time.Second
	maxWebhookBodyBytes      = 4 << 20
	webhookTimestampMaxDigit = 15
)

// VerifyOptions tune a verification; the zero value is the default.
type VerifyOptions struct {
	// Tolerance is how far the signed time may be from now, either way (default 300 s).
	Tolerance time.Duration
	// Now is the current time (default time.Now).
	Now func() time.Time
}

// WebhookVerificationError is a delivery whose signature did not verify: answer 401 and do not
// process it. Reason says which check failed.
type WebhookVerificationError struct{ Reason string }

func (e *WebhookVerificationError) Error() string {
	return "webhook signature not verified: " + e.Reason
}

func refused(reason string) error { return &WebhookVerificationError{Reason: reason} }

func (o *VerifyOptions) within(timestamp int64) error {
	tolerance, now := DefaultWebhookTolerance, time.Now()
	if o != nil && o.Tolerance > 0 {
		tolerance = o.Tolerance
	}
	if o != nil && o.Now != nil {
		now = o.Now()
	}
	skew := now.Unix() - timestamp
	if skew < 0 {
		skew = -skew
	}
	if skew > int64(tolerance/time.Second) {
		return refused("timestamp outside the tolerance")
	}
	return nil
}

func parseTimestamp(text, what string) (int64, error) {
	if text == "" || len(text) > webhookTimestampMaxDigit || strings.Trim(text, "0123456789") != "" {
		return 0, refused("malformed " + what)
	}
	return strconv.ParseInt(text, 10, 64)
}

// VerifySignature checks a `service-signature` header value against the exact raw body
// received (never a re-encoded value) with the endpoint's secret. Constant-time.
func VerifySignature(body []byte, header, secret string, options *VerifyOptions) error {
	if strings.TrimSpace(header) == "" {
		return refused("missing signature header")
	}
	var timestamp int64 = -1
	var signatures []string
	for _, part := range strings.Split(header, ",") {
		key, value, found := strings.Cut(part, "=")
		if !found {
			continue
		}
		switch strings.TrimSpace(key) {
		case "t":
			t, err := parseTimestamp(strings.TrimSpace(value), "t")
			if err != nil {
				return err
			}
			timestamp = t
		case "v1":
			signatures = append(signatures, strings.TrimSpace(value))
		}
	}
	if timestamp < 0 {
		return refused("no t in signature header")
	}
	if len(signatures) == 0 {
		return refused("no v1 in signature header")
	}
	if err := options.within(timestamp); err != nil {
		return err
	}
	mac := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(mac, "%d.", timestamp)
	mac.Write(body)
	expected := []byte(hex.EncodeToString(mac.Sum(nil)))
	if anyMatch(expected, signatures) {
		return nil
	}
	return refused("signature mismatch")
}

// VerifyStandardWebhook checks the Standard Webhooks headers (webhook-id, webhook-timestamp,
// webhook-signature) against the exact raw body received. Constant-time.
func VerifyStandardWebhook(body []byte, id, timestamp, signature, secret string, options *VerifyOptions) error {
	if id == "" || timestamp == "" || signature == "" {
		return refused("missing webhook-id, webhook-timestamp or webhook-signature header")
	}
	t, err := parseTimestamp(timestamp, "webhook-timestamp")
	if err != nil {
		return err
	}
	if err := options.within(t); err != nil {
		return err
	}
	mac := hmac.New(sha256.New, standardKey(secret))
	fmt.Fprintf(mac, "%s.%d.", id, t)
	mac.Write(body)
	expected := []byte(base64.StdEncoding.EncodeToString(mac.Sum(nil)))
	var signatures []string
	for _, entry := range strings.Split(signature, " ") {
		if version, value, found := strings.Cut(entry, ","); found && version == "v1" {
			signatures = append(signatures, value)
		}
	}
	if anyMatch(expected, signatures) {
		return nil
	}
	return refused("signature mismatch")
}

// standardKey is the HMAC key of the Standard Webhooks scheme: the base64 part of the secret
// after "whsec_" (secrets made in base64url decode too, as the service reads them).
func standardKey(secret string) []byte {
	text := strings.TrimPrefix(secret, "whsec_")
	text = strings.NewReplacer("-", "+", "_", "/").Replace(strings.TrimRight(text, "="))
	key, err := base64.RawStdEncoding.DecodeString(text)
	if err != nil {
		return nil
	}
	return key
}

// anyMatch compares every candidate in constant time, with no early exit.
func anyMatch(expected []byte, candidates []string) bool {
	matched := 0
	for _, candidate := range candidates {
		matched |= subtle.ConstantTimeCompare(expected, []byte(candidate))
	}
	return matched == 1
}

// VerifyWebhook checks a delivery's headers against the exact raw body received: the
// service-signature header when present, the Standard Webhooks headers otherwise.
func VerifyWebhook(body []byte, header http.Header, secret string, options *VerifyOptions) error {
	if own := header.Values(SignatureHeader); len(own) > 0 {
		return VerifySignature(body, strings.Join(own, ","), secret, options)
	}
	return VerifyStandardWebhook(body, header.Get(WebhookIDHeader), header.Get(WebhookTimestampHeader),
		strings.Join(header.Values(WebhookSignatureHeader), " "), secret, options)
}

// WebhookEvent is the body of a delivery. Delivery is at least once: deduplicate on ID (also
// the webhook-id header).
type WebhookEvent struct {
	// ID is the message id for message.published, "retract_" + the message id for
	// message.retracted, "upd_…", "rct_…" or "evt_…" for the others.
	ID   string `json:"id"`
	Type string `json:"type"`
	// Timestamp is in milliseconds since the epoch.
	Timestamp     int64  `json:"timestamp"`
	EnvironmentID string `json:"environmentId"`
	// ChannelID is the channel the event is about; empty for an event about none.
	ChannelID string `json:"channelId,omitempty"`
	// Data is the event's data as received: see Message, or GET /v1/webhook-event-types.
	Data json.RawMessage `json:"data"`
}

// Message decodes Data as a message (message.published, message.retracted, message.updated).
func (e *WebhookEvent) Message() (*MessageEnvelope, error) {
	var message MessageEnvelope
	if err := json.Unmarshal(e.Data, &message); err != nil {
		return nil, fmt.Errorf("rtm: the data of %s is not a message: %w", e.Type, err)
	}
	return &message, nil
}

// ParseWebhook verifies a delivery (as VerifyWebhook) and decodes its event.
func ParseWebhook(body []byte, header http.Header, secret string, options *VerifyOptions) (*WebhookEvent, error) {
	if err := VerifyWebhook(body, header, secret, options); err != nil {
		return nil, err
	}
	var event WebhookEvent
	if err := json.Unmarshal(body, &event); err != nil {
		return nil, fmt.Errorf("rtm: a verified webhook body is not an event: %w", err)
	}
	return &event, nil
}

// WebhookHandler is an http.Handler receiving deliveries: it reads the raw body, answers 401
// to one that does not verify, calls handle with the event otherwise, and answers 204 when
// handle returns nil, 500 when it returns an error (the service then delivers it again).
func WebhookHandler(secret string, options *VerifyOptions, handle func(*http.Request, *WebhookEvent) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "POST only", http.StatusMethodNotAllowed)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, maxWebhookBodyBytes))
		if err != nil {
			http.Error(w, "unreadable body", http.StatusBadRequest)
			return
		}
		event, err := ParseWebhook(body, r.Header, secret, options)
		if err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		if err := handle(r, event); err != nil {
			http.Error(w, "not processed", http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
}
