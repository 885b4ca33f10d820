package rtm

// Against a running service: set RTM_TEST_CONTROL_URL, RTM_TEST_SECRET_KEY and RTM_TEST_PEER_URL
// (test/sdk.go.test.ts in the service's repository starts a cluster and does). The peer is the
// Node side of the test: it opens the WebSocket the Go standard library has no client for.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

type delivery struct {
	body   []byte
	header http.Header
}

// receiver is a real webhook endpoint: it keeps every request's raw body and headers and
// answers 204 to one that verifies with the current secret, 401 otherwise.
type receiver struct {
	mu       sync.Mutex
	secret   string
	received []delivery
	server   *httptest.Server
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{}
	r.server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.received = append(r.received, delivery{body: body, header: req.Header.Clone()})
		secret := r.secret
		r.mu.Unlock()
		req.Body = io.NopCloser(bytes.NewReader(body))
		WebhookHandler(secret, nil, func(*http.Request, *WebhookEvent) error { return nil }).ServeHTTP(w, req)
	}))
	t.Cleanup(r.server.Close)
	return r
}

// await is the first delivery whose event matches, within a generous deadline.
func (r *receiver) await(t *testing.T, what string, match func(*WebhookEvent) bool) delivery {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		r.mu.Lock()
		for _, d := range r.received {
			var event WebhookEvent
			if json.Unmarshal(d.body, &event) == nil && match(&event) {
				r.mu.Unlock()
				return d
			}
		}
		r.mu.Unlock()
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("no delivery of %s within 60 s", what)
	return delivery{}
}

func peer(t *testing.T, what string, body any) {
	t.Helper()
	payload, _ := json.Marshal(body)
	res, err := http.Post(os.Getenv("RTM_TEST_PEER_URL")+"/"+what, "application/json", bytes.NewReader(payload))
	if err != nil {
		t.Fatalf("peer %s: %v", what, err)
	}
	defer res.Body.Close()
	answer, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("peer %s: %d %s", what, res.StatusCode, answer)
	}
}

func TestIntegration(t *testing.T) {
	url := os.Getenv("RTM_TEST_CONTROL_URL")
	if url == "" {
		t.Skip("RTM_TEST_CONTROL_URL is not set: no service to test against (test/sdk.go.test.ts sets it)")
	}
	client, err := NewClient(Options{URL: url, SecretKey: os.Getenv("RTM_TEST_SECRET_KEY")})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	t.Run("a minted token opens a socket that sees the SDK's publish", func(t *testing.T) {
		token, err := client.MintToken(ctx, MintTokenInput{UserID: "go-ann", TTLSeconds: Ptr(int64(600))})
		if err != nil || token.UserID != "go-ann" || time.Until(token.ExpiresAt) > 600*time.Second {
			t.Fatalf("MintToken: %+v %v", token, err)
		}
		peer(t, "subscribe", map[string]string{"token": token.Token, "channelId": "go.room"})
		published, err := client.Publish(ctx, "go.room", PublishMessageInput{Content: json.RawMessage(`{"text":"from go"}`), Type: Ptr("chat")})
		if err != nil || published.Message == nil || published.Message.Seq != 1 {
			t.Fatalf("Publish: %+v %v", published, err)
		}
		peer(t, "seen", map[string]string{"id": published.Message.ID})
	})

	t.Run("batch publish, history page after page", func(t *testing.T) {
		var batch []PublishBatchInputMessage
		for i := 2; i <= 6; i++ {
			batch = append(batch, PublishBatchInputMessage{ChannelID: "go.room", Content: json.RawMessage(fmt.Sprintf(`{"n":%d}`, i))})
		}
		batch = append(batch, PublishBatchInputMessage{ChannelID: "go.room", Content: json.RawMessage(`{"typing":true}`), Ephemeral: Ptr(true)})
		batch = append(batch, PublishBatchInputMessage{ChannelID: "go.room", Content: json.RawMessage(`{"big":"` + strings.Repeat("x", 70<<10) + `"}`)})
		results, err := client.PublishBatch(ctx, batch)
		if err != nil || len(results) != 7 || results[4].Message.Seq != 6 || results[5].Ephemeral == nil || results[6].Error == nil || results[6].Error.Code != "payload_too_large" {
			t.Fatalf("PublishBatch: %+v %v", results, err)
		}
		page, err := client.History(ctx, "go.room", &ListMessagesParams{After: Ptr(int64(0)), Limit: Ptr(int64(2))})
		if err != nil || len(page.Messages) != 2 || !page.HasMore || string(page.Messages[0].Content) != `{"text":"from go"}` {
			t.Fatalf("History: %+v %v", page, err)
		}
		all, err := client.AllHistory("go.room", 0, 2).Collect(ctx)
		var seqs []int64
		for _, m := range all {
			seqs = append(seqs, m.Seq)
		}
		if err != nil || fmt.Sprint(seqs) != "[1 2 3 4 5 6]" || all[0].Kind != MessageEnvelopeKindServer {
			t.Fatalf("AllHistory: %v %v", seqs, err)
		}
	})

	t.Run("members, bans, edits and reactions", func(t *testing.T) {
		if _, err := client.PutMember(ctx, "go.team", "go-ann", &PutMemberInput{Role: Ptr(MembershipRoleModerator)}); err != nil {
			t.Fatal(err)
		}
		members, err := client.AllMembers("go.team").Collect(ctx)
		if err != nil || len(members) != 1 || members[0].Role != MembershipRoleModerator {
			t.Fatalf("AllMembers: %+v %v", members, err)
		}
		if _, err := client.Ban(ctx, "go.team", "go-bob", &BanFromChannelInput{Reason: Ptr("spam")}); err != nil {
			t.Fatal(err)
		}
		if ban, err := client.GetBan(ctx, "go.team", "go-bob"); err != nil || ban == nil || *ban.Reason != "spam" {
			t.Fatalf("GetBan: %+v %v", ban, err)
		}
		if err := client.Unban(ctx, "go.team", "go-bob"); err != nil {
			t.Fatal(err)
		}
		if ban, err := client.GetBan(ctx, "go.team", "go-bob"); err != nil || ban != nil {
			t.Fatalf("GetBan after Unban: %+v %v", ban, err)
		}
		first, err := client.History(ctx, "go.room", &ListMessagesParams{Limit: Ptr(int64(1))})
		if err != nil {
			t.Fatal(err)
		}
		id := first.Messages[0].ID
		if _, err := client.EditMessage(ctx, "go.room", id, EditMessageInput{Content: json.RawMessage(`{"text":"edited"}`)}); err != nil {
			t.Fatal(err)
		}
		versions, err := client.MessageVersions(ctx, "go.room", id)
		if err != nil || len(versions) != 2 {
			t.Fatalf("MessageVersions: %+v %v", versions, err)
		}
		if r, err := client.AddReaction(ctx, "go.room", id, "thumbsup", "go-ann"); err != nil || !r.Reacted {
			t.Fatalf("AddReaction: %+v %v", r, err)
		}
		_, err = client.Retract(ctx, "go.room", "msg_00000000000000000000000000", nil)
		if e, ok := err.(*Error); !ok || e.Status != 404 || e.Code != "not_found" {
			t.Fatalf("Retract of no message: %v", err)
		}
	})

	t.Run("an endpoint receives real deliveries that verify, and refuses an altered body", func(t *testing.T) {
		recv := newReceiver(t)
		created, err := client.CreateWebhookEndpoint(ctx, CreateWebhookEndpointInput{
			URL:         recv.server.URL + "/hooks",
			Description: Ptr("go sdk"),
			EventTypes:  Some([]WebhookDeliveryEventType{WebhookDeliveryEventTypeMessagePublished, WebhookDeliveryEventTypeWebhookTest}),
		})
		if err != nil || !strings.HasPrefix(created.Secret, "whsec_") {
			t.Fatalf("CreateWebhookEndpoint: %+v %v", created, err)
		}
		recv.mu.Lock()
		recv.secret = created.Secret
		recv.mu.Unlock()
		if secret, err := client.WebhookEndpointSecret(ctx, created.ID); err != nil || secret != created.Secret {
			t.Fatalf("WebhookEndpointSecret: %v", err)
		}
		updated, err := client.UpdateWebhookEndpoint(ctx, created.ID, UpdateWebhookEndpointInput{Description: Ptr("renamed"), Channels: Null[[]string]()})
		if err != nil || updated.Description != "renamed" {
			t.Fatalf("UpdateWebhookEndpoint: %+v %v", updated, err)
		}
		all, err := client.AllWebhookEndpoints(1).Collect(ctx)
		if err != nil || len(all) != 1 || all[0].ID != created.ID {
			t.Fatalf("AllWebhookEndpoints: %+v %v", all, err)
		}

		test, err := client.TestWebhookEndpoint(ctx, created.ID, nil)
		if err != nil {
			t.Fatal(err)
		}
		recv.await(t, "webhook.test", func(e *WebhookEvent) bool { return e.Type == "webhook.test" })
		published, err := client.Publish(ctx, "go.hooked", PublishMessageInput{Content: json.RawMessage(`{"text":"héllo",  "spaced":true}`)})
		if err != nil {
			t.Fatal(err)
		}
		got := recv.await(t, "message.published", func(e *WebhookEvent) bool { return e.ID == published.Message.ID })

		event, err := ParseWebhook(got.body, got.header, created.Secret, nil)
		if err != nil || event.Type != "message.published" || event.ChannelID != "go.hooked" {
			t.Fatalf("ParseWebhook: %+v %v", event, err)
		}
		if message, err := event.Message(); err != nil || string(message.Content) != `{"text":"héllo",  "spaced":true}` {
			t.Fatalf("the content is not kept as sent: %+v %v", message, err)
		}
		standardOnly := got.header.Clone()
		standardOnly.Del(SignatureHeader)
		if err := VerifyWebhook(got.body, standardOnly, created.Secret, nil); err != nil {
			t.Fatalf("Standard Webhooks headers: %v", err)
		}
		altered := bytes.Replace(got.body, []byte("héllo"), []byte("hello"), 1)
		for name, header := range map[string]http.Header{"service-signature": got.header, "standard": standardOnly} {
			if err := VerifyWebhook(altered, header, created.Secret, nil); err == nil {
				t.Fatalf("%s: an altered body verified", name)
			}
		}
		deliveries, err := client.AllDeliveries(&ListDeliveriesParams{EndpointID: Ptr(created.ID)}).Collect(ctx)
		if err != nil || len(deliveries) < 2 {
			t.Fatalf("AllDeliveries: %d %v (test delivery %s)", len(deliveries), err, test.DeliveryID)
		}

		rotated, err := client.RotateWebhookEndpointSecret(ctx, created.ID)
		if err != nil || rotated == created.Secret {
			t.Fatalf("RotateWebhookEndpointSecret: %v", err)
		}
		again, err := client.Publish(ctx, "go.hooked", PublishMessageInput{Content: json.RawMessage(`{"n":2}`)})
		if err != nil {
			t.Fatal(err)
		}
		both := recv.await(t, "the delivery after the rotation", func(e *WebhookEvent) bool { return e.ID == again.Message.ID })
		for _, secret := range []string{created.Secret, rotated} {
			if err := VerifyWebhook(both.body, both.header, secret, nil); err != nil {
				t.Fatalf("after the rotation, %s…: %v", secret[:10], err)
			}
		}

		if err := client.DeleteWebhookEndpoint(ctx, created.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := client.WebhookEndpoint(ctx, created.ID); !IsCode(err, "not_found") {
			t.Fatalf("a deleted endpoint: %v", err)
		}
	})
}
