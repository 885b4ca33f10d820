import { UserParams } from '../members.ts';
import { RevokeTokenBody, RevokedToken, RevokedUserTokens } from '../tokens.ts';
import { ErrorBody } from '../common.ts';
import { type Operations } from './operation.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody, 503: ErrorBody };

/** Control plane: revoke one user token by its `jti`, or every token of a user issued before now. */
export const tokenRevocationOperations = {
  revokeToken: {
    method: 'POST',
    url: '/v1/tokens/revoke',
    schema: {
      operationId: 'revokeToken',
      summary: 'Revoke one user token',
      description:
        'Secret key. The token with this `jti` (minted here or signed by the environment\'s own keys) is refused from now on ' +
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
      summary: "Revoke every token of a user",
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
