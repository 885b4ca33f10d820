import { z } from 'zod';
import { IsoTime } from '../common.ts';
import { ErrorBody } from '../common.ts';
import type { Operations } from './operation.ts';

const Me = z
  .object({
    userId: z.string(),
    environmentId: z.string(),
    anon: z.boolean(),
    expiresAt: IsoTime,
    ext: z.record(z.string(), z.unknown()).optional().describe('The `claims` given when the token was minted.'),
  })
  .meta({ id: 'Me', description: 'Who the user token says the caller is.' });

/** Realtime edge: `GET /v1/me`, the identity a user token carries (a client's token check). */
export const meOperations = {
  getMe: {
    method: 'GET',
    url: '/v1/me',
    schema: {
      operationId: 'getMe',
      summary: 'The caller of a user token',
      description: 'User token. Answers who the token belongs to and when it expires, so a client can check a token ' + 'before opening sockets.',
      tags: ['tokens'],
      security: [{ userToken: [] }],
      response: { 200: Me, 401: ErrorBody, 403: ErrorBody },
    },
  },
} as const satisfies Operations;
