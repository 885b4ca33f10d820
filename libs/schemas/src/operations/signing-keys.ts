import { RotateSigningKeyBody, RotatedSigningKey, SigningKeyList } from '../tokens.ts';
import { ErrorBody } from '../common.ts';
import { type Operations } from './operation.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody, 503: ErrorBody };

const security = [{ secretKey: [] }];

/** Control plane: the environment's token signing keys (`/v1/signing-keys`), listed and rotated. */
export const signingKeyOperations = {
  listSigningKeys: {
    method: 'GET',
    url: '/v1/signing-keys',
    schema: {
      operationId: 'listSigningKeys',
      summary: 'List token signing keys',
      description: 'Secret key. The keys that sign and verify the environment\'s minted user tokens, newest first (keys retired over a week ago are left out). Secrets are never shown.',
      tags: ['tokens'],
      security,
      response: { 200: SigningKeyList, ...errors },
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
      response: { 200: RotatedSigningKey, ...errors },
    },
  },
} as const satisfies Operations;
