/**
 * The latency case's baseline (test/bench/lib/publish-latency.ts): the publish path's hops with
 * nothing of the service in them, in two child processes of the benchmark's own file.
 *   edge   a Fastify 5 route and a `ws` server: POST /v1/channels/{id}/messages becomes a NATS
 *          request to the owner, its reply the 201; the owner's frames go to the channel's sockets.
 *   owner  a NATS subscriber: inserts the messages' contents, group-committed (one insert at a
 *          time, of what arrived meanwhile), then publishes each frame to the edge and replies.
 * The same generator, the same sockets, the same rate: what this machine's processes, loopback
 * sockets, NATS and a Postgres commit cost a publish → frame before the service does anything.
 */
import type { ChildProcess } from 'node:child_process';
import { connect, type Msg, type NatsConnection } from 'nats';
import { createPool } from '@rtm/db';
import { announceListening, spawnListening } from './child-server.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** In the child: the edge, on a free loopback port; its requests go to `prefix`'s owner. */
export async function serveHopsEdge(natsUrl: string, prefix: string): Promise<void> {
  const [{ default: Fastify }, { WebSocketServer }] = await Promise.all([import('fastify'), import('ws')]);
  const nc = await connect({ servers: natsUrl });
  const sockets = new Map<string, Set<import('ws').WebSocket>>();
  nc.subscribe(`${prefix}.frames.*`, {
    callback: (error, msg) => {
      if (error) return;
      const text = decoder.decode(msg.data);
      for (const ws of sockets.get(msg.subject.slice(prefix.length + 8)) ?? []) ws.send(text);
    },
  });
  const app = Fastify({ logger: false });
  app.post<{ Params: { channelId: string }; Body: { content: unknown } }>('/v1/channels/:channelId/messages', async (request, reply) => {
    const answer = await nc.request(`${prefix}.owner`, encoder.encode(JSON.stringify({ channel: request.params.channelId, content: request.body.content })), {
      timeout: 10_000,
    });
    return reply.code(201).header('content-type', 'application/json').send(decoder.decode(answer.data));
  });
  const wss = new WebSocketServer({ noServer: true });
  app.server.on('upgrade', (request, socket, head) => {
    const channel = /^\/v1\/channels\/([^/?]+)/.exec(request.url ?? '')?.[1];
    if (!channel) return socket.destroy();
    wss.handleUpgrade(request, socket, head, (ws) => {
      let set = sockets.get(channel);
      if (!set) sockets.set(channel, (set = new Set()));
      set.add(ws);
      ws.on('close', () => set.delete(ws));
      ws.send('{"op":"ready"}');
    });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  announceListening(app.server.address());
}

/**
 * In the child: the owner, its messages in a table of its own, group-committed as the service
 * does (what arrives while an insert runs goes in the next one, one insert at a time), so the
 * baseline's Postgres work per message is a floor, not a transaction each.
 */
export async function serveHopsOwner(natsUrl: string, prefix: string, databaseUrl: string): Promise<void> {
  const pool = createPool(databaseUrl, { max: 2, name: 'hops' });
  await pool.query('create table if not exists bench_hops (id bigserial primary key, channel text not null, content json not null, ts bigint not null)');
  const nc: NatsConnection = await connect({ servers: natsUrl });
  let seq = 0;
  let queued: { channel: string; text: string; ts: number; msg: Msg }[] = [];
  let writing = false;
  let scheduled = false;
  const write = () => {
    scheduled = false;
    if (writing || queued.length === 0) return;
    const batch = queued;
    queued = [];
    writing = true;
    pool
      .query('insert into bench_hops (channel, content, ts) select * from unnest($1::text[], $2::json[], $3::bigint[])', [
        batch.map((m) => m.channel),
        batch.map((m) => m.text),
        batch.map((m) => m.ts),
      ])
      .then(
        () => {
          for (const { channel, text, ts, msg } of batch) {
            const at = ++seq;
            nc.publish(`${prefix}.frames.${channel}`, encoder.encode(`{"op":"message","seq":${at},"content":${text}}`));
            msg.respond(encoder.encode(`{"id":"m${at}","seq":${at},"timestamp":${ts}}`));
          }
        },
        () => {
          for (const { msg } of batch) msg.respond(encoder.encode('{"error":"insert failed"}'));
        },
      )
      .finally(() => {
        writing = false;
        write();
      });
  };
  nc.subscribe(`${prefix}.owner`, {
    callback: (error, msg) => {
      if (error) return;
      const { channel, content } = JSON.parse(decoder.decode(msg.data)) as { channel: string; content: unknown };
      queued.push({ channel, text: JSON.stringify(content), ts: Date.now(), msg });
      if (!scheduled) {
        scheduled = true;
        setImmediate(write);
      }
    },
  });
  await nc.flush();
  announceListening(null);
}

/** Starts the edge and the owner (`node <entry> --serve=hops-…`); the edge's URL. */
export async function startHops(entry: string, natsUrl: string, databaseUrl: string): Promise<{ url: string; children: ChildProcess[] }> {
  const prefix = `benchhops${process.pid}`;
  const owner = await spawnListening('hops owner', ['--import', 'tsx', entry, '--serve=hops-owner', natsUrl, prefix, databaseUrl]);
  const edge = await spawnListening('hops edge', ['--import', 'tsx', entry, '--serve=hops-edge', natsUrl, prefix]);
  return { url: `http://127.0.0.1:${edge.port}`, children: [owner.child, edge.child] };
}
