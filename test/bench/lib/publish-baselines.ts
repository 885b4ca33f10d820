/**
 * The publish benchmark's baselines (test/bench/publish.bench.ts), each in a child process of the
 * benchmark's own file: `bare`, a Fastify 5 JSON POST route that answers at once (the HTTP
 * ceiling); `naive`, a Fastify route doing one transaction per message with pg (INSERT the message
 * and `UPDATE channels SET last_seq = last_seq + 1`, plus a delivery row and
 * `graphile_worker.add_job` when the request says webhooks are on).
 */
import type { ChildProcess } from 'node:child_process';
import { createPool, newId } from '@rtm/db';
import { announceListening, spawnListening } from './child-server.ts';

/** In the child: serves the baseline `kind` on a free loopback port. */
export async function serveBaseline(kind: 'bare' | 'naive', databaseUrl: string): Promise<void> {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  if (kind === 'bare') {
    app.post('/v1/channels/:channelId/messages', async (_request, reply) => reply.code(201).send({ id: 'x', seq: 1, timestamp: Date.now() }));
  } else {
    const pool = createPool(databaseUrl, { max: 20, name: 'naive' });
    app.post<{ Params: { channelId: string }; Body: { content: object }; Headers: { 'x-env': string; 'x-webhooks'?: string } }>(
      '/v1/channels/:channelId/messages',
      async (request, reply) => {
        const environmentId = request.headers['x-env'];
        const id = newId('msg');
        const ts = Date.now();
        const client = await pool.connect();
        try {
          await client.query('begin');
          await client.query('insert into channels (environment_id, id) values ($1, $2) on conflict do nothing', [environmentId, request.params.channelId]);
          const { rows } = await client.query<{ pk: number; last_seq: number }>(
            'update channels set last_seq = last_seq + 1 where environment_id = $1 and id = $2 returning pk, last_seq',
            [environmentId, request.params.channelId],
          );
          const { pk, last_seq: seq } = rows[0]!;
          await client.query(
            `insert into messages (channel_pk, seq, id, type, kind, content, sender_id, sender_anon, ts)
             values ($1, $2, $3, 'message', 'server', $4, 'server', false, $5)`,
            [pk, seq, id, JSON.stringify(request.body.content), ts],
          );
          if (request.headers['x-webhooks'] === 'on') {
            const delivery = newId('dlv');
            await client.query(
              `insert into webhook_deliveries (id, environment_id, event_id, event_type, channel_id, url, body, next_attempt_at)
               values ($1, $2, $3, 'message.published', $4, 'https://hooks.example.com/in', $5, now())`,
              [delivery, environmentId, id, request.params.channelId, JSON.stringify({ id, data: request.body.content })],
            );
            await client.query(`select graphile_worker.add_job('deliver_webhooks', json_build_object('ids', array[$1::text]))`, [delivery]);
          }
          await client.query('commit');
          return reply.code(201).send({ id, seq, timestamp: ts });
        } catch (error) {
          await client.query('rollback').catch(() => {});
          throw error;
        } finally {
          client.release();
        }
      },
    );
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  announceListening(app.server.address());
}

/** Starts baseline `kind` as `node <entry> --serve=<kind> <databaseUrl>` (the benchmark's own file). */
export async function startBaseline(entry: string, kind: 'bare' | 'naive', databaseUrl: string): Promise<{ url: string; child: ChildProcess }> {
  const { port, child } = await spawnListening(`${kind} baseline`, ['--import', 'tsx', entry, `--serve=${kind}`, databaseUrl]);
  return { url: `http://127.0.0.1:${port}`, child };
}
