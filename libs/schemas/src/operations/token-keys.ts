import { z } from 'zod';
import {
  JwksSetting,
  PutJwksBody,
  PutTokenKeyBody,
  RotateSigningKeyBody,
  RotatedSigningKey,
  SigningKeyList,
  TokenKey,
  TokenKeyList,
  TokenKeyParams,
} from '../tokens.ts';
import { ErrorBody } from '../common.ts';
import type { Operations } from './operation.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody, 503: ErrorBody };

const security = [{ secretKey: [] }];

/** The signing keys' routes answer no 404: the environment always has one. */
const signingKeyErrors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody, 503: ErrorBody };

const tags = ['tokens'];

const TENANT_NOTE =
  ' A tenant-signed token has header `alg` RS256, ES256 or EdDSA and `kid`, and claims `iss` (the environment id), ' +
  '`aud` "realtime", `sub` (a user id), `iat`, `exp` (at most 24 h after `iat`), `jti`; optionally `anon`, `ext`, ' +
  '`iat_ms`. See docs/tokens.md.';

/**
 * Control plane: the keys of user tokens. The public keys the environment's own backend signs
 * tokens with (`/v1/token-keys`, `/v1/token-jwks`), and the service's own signing keys
 * (`/v1/signing-keys`), listed and rotated.
 */
export const tokenKeyOperations = {
  listTokenKeys: {
    method: 'GET',
    url: '/v1/token-keys',
    schema: {
      operationId: 'listTokenKeys',
      summary: "List the environment's token keys",
      description: 'Secret key. The registered public keys and the JWKS URL (null when none).' + TENANT_NOTE,
      tags,
      security,
      response: { 200: TokenKeyList, ...errors },
    },
  },
  putTokenKey: {
    method: 'PUT',
    url: '/v1/token-keys/:kid',
    schema: {
      operationId: 'putTokenKey',
      summary: 'Register a public key for tenant-signed tokens',
      description:
        'Secret key. Upsert. Key ids are per environment: another environment using the same kid neither blocks ' +
        'this one nor is affected by it (a token is checked only against the keys of the environment in its `iss`). ' +
        'Tokens signed with it are accepted on every gateway at once.' +
        TENANT_NOTE,
      tags,
      security,
      params: TokenKeyParams,
      body: PutTokenKeyBody,
      response: { 200: TokenKey, ...errors },
    },
  },
  deleteTokenKey: {
    method: 'DELETE',
    url: '/v1/token-keys/:kid',
    schema: {
      operationId: 'deleteTokenKey',
      summary: 'Remove a registered token key',
      description: 'Secret key. Tokens signed with it are refused on every gateway at once (401) and their open sockets close with 4401. Unknown kid: 404.',
      tags,
      security,
      params: TokenKeyParams,
      response: { 204: z.null().describe('Removed'), ...errors },
    },
  },
  putTokenJwks: {
    method: 'PUT',
    url: '/v1/token-jwks',
    schema: {
      operationId: 'putTokenJwks',
      summary: 'Set the JWKS URL for tenant-signed tokens',
      description:
        'Secret key. The gateways fetch the key set under the webhook URL policy (https, public addresses only; checked ' +
        'again at every fetch against what the host resolves to), keep it for 5 minutes, and fetch it again when a token ' +
        'names an unknown `kid` (at most every 30 s). Keys must carry `kid` and `alg`; others are skipped. A registered key ' +
        'with the same kid wins. A URL the policy refuses: 400.' +
        TENANT_NOTE,
      tags,
      security,
      body: PutJwksBody,
      response: { 200: JwksSetting, ...errors },
    },
  },
  deleteTokenJwks: {
    method: 'DELETE',
    url: '/v1/token-jwks',
    schema: {
      operationId: 'deleteTokenJwks',
      summary: 'Remove the JWKS URL',
      description:
        'Secret key. Idempotent. Tokens signed with keys from it are refused on every gateway at once (401); sockets ' +
        'already open with them run until their token expires (revoke the tokens to close them).',
      tags,
      security,
      response: { 204: z.null().describe('Removed'), ...errors },
    },
  },
  listSigningKeys: {
    method: 'GET',
    url: '/v1/signing-keys',
    schema: {
      operationId: 'listSigningKeys',
      summary: 'List token signing keys',
      description:
        "Secret key. The keys that sign and verify the environment's minted user tokens, newest first (keys retired over a week ago are left out). Secrets are never shown.",
      tags: ['tokens'],
      security,
      response: { 200: SigningKeyList, ...signingKeyErrors },
    },
  },
  rotateSigningKey: {
    method: 'POST',
    url: '/v1/signing-keys/rotate',
    schema: {
      operationId: 'rotateSigningKey',
      summary: 'Rotate the token signing key',
      description:
        'Secret key. A new key signs every token minted from now on. Tokens signed by the previous key keep working for ' +
        '`graceSeconds` (default 86400, at most 604800), then every gateway refuses them with 401; sockets opened with them ' +
        'keep running until their token expires. With `graceSeconds: 0` they are refused at once and their open sockets ' +
        'close with 4401 `token revoked` on every gateway. The body may be left out.',
      tags: ['tokens'],
      security,
      body: RotateSigningKeyBody.optional(),
      response: { 200: RotatedSigningKey, ...signingKeyErrors },
    },
  },
} as const satisfies Operations;
