import { CreateAnonymousTokenBody, CreateTokenBody, TokenResponse } from '../tokens.ts';
import { ErrorBody } from '../common.ts';
import { type Operations } from './operation.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody, 503: ErrorBody };

/** Control plane: `POST /v1/tokens` and `POST /v1/tokens/anonymous`. */
export const tokenOperations = {
  mintToken: {
    method: 'POST',
    url: '/v1/tokens',
    schema: {
      operationId: 'mintToken',
      summary: 'Mint a user token',
      description: 'Secret key. The token is a JWT for the realtime edge. Refused (403 banned) for a user banned environment-wide. ' +
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
        'Secret key, or publishable key as `Authorization: Bearer pk_…` or `x-service-key: pk_…` (browser-safe). ' +
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
} as const satisfies Operations;
