import { z } from 'zod';
import { ErrorBody, IsoTime } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { requireUser, userAuth } from '../auth/authenticate.ts';

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
export async function meRoutes(app: ZodApp, deps: GatewayDeps) {
  app.get(
    '/v1/me',
    {
      onRequest: requireUser(deps),
      schema: {
        operationId: 'getMe',
        summary: 'The caller of a user token',
        description:
          'User token. Answers who the token belongs to and when it expires, so a client can check a token ' +
          'before opening sockets.',
        tags: ['tokens'],
        security: [{ userToken: [] }],
        response: { 200: Me, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request) => {
      const auth = userAuth(request);
      return {
        userId: auth.userId,
        environmentId: auth.environmentId,
        anon: auth.anon,
        expiresAt: auth.claims.expiresAt.toISOString(),
        ...(auth.claims.ext ? { ext: auth.claims.ext } : {}),
      };
    },
  );
}
