// Package rtm is the Go client of the service's control plane, for a tenant's backend: it mints
// user tokens, publishes server messages, reads history, manages members, bans and webhook
// endpoints, and verifies the webhooks the service delivers. It uses the standard library only.
//
// The request and answer types (types_gen.go) are generated from docs/openapi.json by
// scripts/generate-go-sdk.ts in the service's repository; the client (the other files) is
// written by hand. Every call takes a context.Context and answers either its data or an error;
// an answer of the service that is not 2xx is an *Error carrying its Status, Code and Reason.
package rtm
