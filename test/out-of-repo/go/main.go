// A backend outside the repository using the Go SDK through a replace directive (see
// test/sdk.go.test.ts): it mints a token, publishes, and receives and verifies a real webhook
// delivery on its own endpoint, refusing the same delivery with an altered body.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync/atomic"
	"time"

	"rtm.local/rtm"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

func run() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	client, err := rtm.NewClient(rtm.Options{URL: os.Getenv("RTM_URL"), SecretKey: os.Getenv("RTM_SECRET_KEY")})
	if err != nil {
		return err
	}
	token, err := client.MintToken(ctx, rtm.MintTokenInput{UserID: "outside"})
	if err != nil {
		return err
	}
	fmt.Println("token", token.Token)

	// a receiver of our own, verifying with the SDK's handler; the raw request is kept as well
	received := make(chan [2][]byte, 16)
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	var secret atomic.Value // set once the endpoint exists, before anything is published
	go http.Serve(listener, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		headers, _ := json.Marshal(r.Header)
		r.Body = io.NopCloser(bytes.NewReader(body))
		rtm.WebhookHandler(secret.Load().(string), nil, func(*http.Request, *rtm.WebhookEvent) error { return nil }).ServeHTTP(w, r)
		received <- [2][]byte{body, headers}
	}))
	endpoint, err := client.CreateWebhookEndpoint(ctx, rtm.CreateWebhookEndpointInput{URL: "http://" + listener.Addr().String() + "/hooks"})
	if err != nil {
		return err
	}
	secret.Store(endpoint.Secret)

	published, err := client.Publish(ctx, "outside.room", rtm.PublishMessageInput{Content: json.RawMessage(`{"text":"from outside"}`)})
	if err != nil {
		return err
	}
	fmt.Println("published", published.Message.ID)
	for {
		select {
		case <-ctx.Done():
			return fmt.Errorf("no delivery of %s: %w", published.Message.ID, ctx.Err())
		case got := <-received:
			var header http.Header
			if err := json.Unmarshal(got[1], &header); err != nil {
				return err
			}
			event, err := rtm.ParseWebhook(got[0], header, endpoint.Secret, nil)
			if err != nil {
				return err
			}
			if event.ID != published.Message.ID {
				continue
			}
			altered := bytes.Replace(got[0], []byte("from outside"), []byte("from elsewhere"), 1)
			if rtm.VerifyWebhook(altered, header, endpoint.Secret, nil) == nil {
				return fmt.Errorf("an altered body verified")
			}
			fmt.Println("verified", event.ID, event.Type)
			fmt.Println("refused altered body")
			return nil
		}
	}
}
