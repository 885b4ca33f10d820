package rtm

import (
	"context"
	"net/http"
)

// MintToken mints a user token (a JWT) for the realtime edge. 403 banned for a user banned
// environment-wide.
func (c *Client) MintToken(ctx context.Context, input MintTokenInput) (*UserToken, error) {
	return call[UserToken](ctx, c, request{method: http.MethodPost, path: "/v1/tokens", body: input})
}

// MintAnonymousToken mints an anonymous user token (user id "anon_…").
func (c *Client) MintAnonymousToken(ctx context.Context, input *MintAnonymousTokenInput) (*UserToken, error) {
	if input == nil {
		input = &MintAnonymousTokenInput{}
	}
	return call[UserToken](ctx, c, request{method: http.MethodPost, path: "/v1/tokens/anonymous", body: input})
}

// RevokeToken revokes one user token by its jti: refused everywhere at once, its sockets close.
func (c *Client) RevokeToken(ctx context.Context, jti string) (*RevokedToken, error) {
	return call[RevokedToken](ctx, c, request{method: http.MethodPost, path: "/v1/tokens/revoke", body: RevokeTokenInput{JTI: jti}, idempotent: true})
}

// RevokeUserTokens revokes every token of a user minted before now.
func (c *Client) RevokeUserTokens(ctx context.Context, userID string) (*RevokedUserTokens, error) {
	return call[RevokedUserTokens](ctx, c, request{method: http.MethodDelete, path: path("v1", "users", userID, "tokens")})
}

// SigningKeys lists the environment's token signing keys (no secrets).
func (c *Client) SigningKeys(ctx context.Context) (*SigningKeyList, error) {
	return call[SigningKeyList](ctx, c, request{method: http.MethodGet, path: "/v1/signing-keys"})
}

// RotateSigningKey rotates the token signing key; the old one verifies for GraceSeconds (default 24 h).
func (c *Client) RotateSigningKey(ctx context.Context, input *RotateSigningKeyInput) (*RotatedSigningKey, error) {
	if input == nil {
		input = &RotateSigningKeyInput{}
	}
	return call[RotatedSigningKey](ctx, c, request{method: http.MethodPost, path: "/v1/signing-keys/rotate", body: input})
}

// TokenKeys lists the public keys (and JWKS URL) the environment's backend signs user tokens with.
func (c *Client) TokenKeys(ctx context.Context) (*TokenKeyList, error) {
	return call[TokenKeyList](ctx, c, request{method: http.MethodGet, path: "/v1/token-keys"})
}

// PutTokenKey registers (or replaces) a public key for tenant-signed user tokens.
func (c *Client) PutTokenKey(ctx context.Context, kid string, input PutTokenKeyInput) (*TokenKey, error) {
	return call[TokenKey](ctx, c, request{method: http.MethodPut, path: path("v1", "token-keys", kid), body: input})
}

// DeleteTokenKey removes a registered public key; its tokens are refused at once.
func (c *Client) DeleteTokenKey(ctx context.Context, kid string) error {
	_, err := c.do(ctx, request{method: http.MethodDelete, path: path("v1", "token-keys", kid)}, nil)
	return err
}

// SetTokenJWKS sets the JWKS URL the gateways fetch tenant token keys from.
func (c *Client) SetTokenJWKS(ctx context.Context, url string) (*TokenJWKS, error) {
	return call[TokenJWKS](ctx, c, request{method: http.MethodPut, path: "/v1/token-jwks", body: PutTokenJWKSInput{URL: url}})
}

// RemoveTokenJWKS removes the JWKS URL (idempotent).
func (c *Client) RemoveTokenJWKS(ctx context.Context) error {
	_, err := c.do(ctx, request{method: http.MethodDelete, path: "/v1/token-jwks"}, nil)
	return err
}

// MintLogsToken mints a token for the live logs socket of the key's own environment.
func (c *Client) MintLogsToken(ctx context.Context, environmentID string, input *MintLogsTokenInput) (*LogsToken, error) {
	if input == nil {
		input = &MintLogsTokenInput{}
	}
	return call[LogsToken](ctx, c, request{method: http.MethodPost, path: path("v1", "environments", environmentID, "logs-token"), body: input})
}

// DeployConfig deploys and activates a whole configuration: what it omits takes its default.
func (c *Client) DeployConfig(ctx context.Context, config DeployConfigInput) (*ConfigDeployment, error) {
	return call[ConfigDeployment](ctx, c, request{method: http.MethodPut, path: "/v1/config", body: config})
}

// PatchConfig merges a JSON Merge Patch into the active configuration and deploys the result:
// what it omits is kept, Null[T]() removes.
func (c *Client) PatchConfig(ctx context.Context, patch ConfigPatchInput) (*ConfigDeployment, error) {
	return call[ConfigDeployment](ctx, c, request{method: http.MethodPatch, path: "/v1/config", body: patch})
}

// Config is the active configuration (DeploymentID nil before the first deploy).
func (c *Client) Config(ctx context.Context) (*ConfigDeployment, error) {
	return call[ConfigDeployment](ctx, c, request{method: http.MethodGet, path: "/v1/config"})
}
