import { UserParams } from '../members.ts';
import { CreateAnonymousTokenBody, CreateTokenBody, RevokeTokenBody, RevokedToken, RevokedUserTokens, TokenResponse } from '../tokens.ts';
import { ErrorBody } from '../common.ts';
import type { Operations } from './operation.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody, 503: ErrorBody };

/**
 * Control plane: user tokens, minted (`POST /v1/tokens`, `POST /v1/tokens/anonymous`) and revoked
 * (one by its `jti`, or every token of a user issued before now). The anonymous mint is served on
 * the realtime edge too (`realtimeTokenOperations`), where browsers already talk.
 */
export const tokenOperations = {
  mintToken: {
    method: 'POST',
    url: '/v1/tokens',
    schema: {
      operationId: 'mintToken',
      summary: 'Mint a user token',
      description:
        'Secret key. The token is a JWT for the realtime edge. Refused (403 banned) for a user banned environment-wide. ' +
        '`capabilities` narrows what the token may do, by channel pattern (docs/permissions.md); refused with 400 ' +
        '`invalid_request` when over 64 patterns or 2 KiB serialized, or with an unknown operation or a bad pattern.',
      tags: ['tokens'],
      security: [{ secretKey: [] }],
      body: CreateTokenBody,
      response: { 201: TokenResponse, ...errors },
    },
  },
  mintAnonymousToken: {
    method: 'POST',
    url: '/v1/tokens/anonymous',
    schema: {
      operationId: 'mintAnonymousToken',
      summary: 'Mint an anonymous user token',
      description:
        'Served on both hosts, with the same credentials and answers: the realtime edge, where a browser already talks, ' +
        'and the control plane. Secret key, or publishable key as `Authorization: Bearer pk_…` or `x-service-key: pk_…` ' +
        '(browser-safe; CORS allows any origin on both hosts, the allowed origins decide). A user token is 403 `forbidden`. ' +
        'When the environment has allowed origins, a publishable-key request whose `Origin` is not among them is 403 ' +
        '`origin_not_allowed`; origins compare as lowercase `scheme://host[:port]` (default port dropped, no path), and ' +
        '`Origin: null` never matches. A request without `Origin` (a server or native app) is not judged by the list. ' +
        'The body may be empty. `userId` is `anon_` + a random id; the token carries `anon: true`. `capabilities` as on ' +
        'POST /v1/tokens; channel namespaces may also refuse anonymous tokens (docs/permissions.md).',
      tags: ['tokens'],
      security: [{ secretKey: [] }, { publishableKey: [] }, { publishableKeyHeader: [] }],
      body: CreateAnonymousTokenBody.optional(),
      response: { 201: TokenResponse, ...errors },
    },
  },
  revokeToken: {
    method: 'POST',
    url: '/v1/tokens/revoke',
    schema: {
      operationId: 'revokeToken',
      summary: 'Revoke one user token',
      description:
        "Secret key. The token with this `jti` (minted here or signed by the environment's own keys) is refused from now on " +
        'on every gateway: HTTP with 401 `unauthorized`, and its open sockets (channel socket, inbox, `/v1/connect`) close ' +
        'with 4401 `token revoked`. Idempotent. The revocation is kept until no token can still be unexpired (the longest ' +
        'token lifetime, 24 h, and a minute), then forgotten.',
      tags: ['tokens'],
      security: [{ secretKey: [] }],
      body: RevokeTokenBody,
      response: { 200: RevokedToken, ...errors },
    },
  },
  revokeUserTokens: {
    method: 'DELETE',
    url: '/v1/users/:userId/tokens',
    schema: {
      operationId: 'revokeUserTokens',
      summary: 'Revoke every token of a user',
      description:
        'Secret key. Every token of the user issued before now is refused on every gateway (401; open sockets close with ' +
        '4401). Tokens minted afterwards work, even within the same second: minted tokens carry their issue time in ' +
        'milliseconds (`iat_ms`). A tenant-signed token without `iat_ms` is judged by `iat` (seconds), so one issued in ' +
        'the same second as the revocation is refused too.',
      tags: ['tokens'],
      security: [{ secretKey: [] }],
      params: UserParams,
      response: { 200: RevokedUserTokens, ...errors },
    },
  },
} as const satisfies Operations;

/** Realtime edge: the anonymous mint, the same operation as on the control plane. */
export const realtimeTokenOperations = { mintAnonymousToken: tokenOperations.mintAnonymousToken } as const satisfies Operations;
