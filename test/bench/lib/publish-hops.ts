/**
 * The "bare hops" baseline of the publish benchmark (test/bench/publish.bench.ts): the publish
 * path's hops with nothing of the service in them (no auth, validation, limits, envelope or
 * webhooks), batched as well as the service batches them, in two child processes of the
 * benchmark's own file. One pair serves every bare-hops case: the single route at any number of
 * clients (closed loop), the batch route, and the latency case (open loop, with sockets).
 *   edge   a Fastify 5 server (this file): `POST /v1/channels/{id}/messages` and
 *          `POST /v1/messages/batch` put their messages in the current event-loop turn's bundle,
 *          and the requests started in one turn leave as ONE NATS request to the owner (as the
 *          gateway's owner batcher sends one bus request per owner and turn); the reply answers
 *          each HTTP request (201, or 200 with `results` for a batch). Its `ws` server subscribes
 *          to a channel's frames while a socket of the channel is open, and forwards them.
 *   owner  a NATS subscriber (publish-hops-owner.ts) that group-commits the messages.
 * The same generator, the same clients or sockets, the same rate as the service's cases: what
 * this machine's processes, loopback sockets, NATS and a Postgres commit cost a publish before
 * the service does anything.
 *
 * Guarantees: every HTTP request is answered once: with its seqs after the owner committed its
 * messages, 503 when the owner failed the commit or gave no reply within REPLY_TIMEOUT_MS. A
 * request's messages never span two bundles (a batch is one NATS request and one commit).
 */
import type { ChildProcess } from 'node:child_process';
import { connect, createInbox, type NatsConnection, type Subscription } from 'nats';
import { announceListening, spawnListening } from './child-server.ts';

export { serveHopsOwner } from './publish-hops-owner.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Messages per bundle at most (about 100 bytes each: well under NATS's 1 MB payload). */
const MAX_BUNDLE_MESSAGES = 2_000;
/** How long a bundle waits for the owner's reply before its requests get 503. */
const REPLY_TIMEOUT_MS = 10_000;

/**
 * One HTTP request's part of a bundle: its messages as `<channel> <content JSON>` lines (JSON
 * text holds no raw newline), and what answers it: the commit's timestamp and one seq per line,
 * or nothing when it failed.
 */
interface Part {
  lines: string[];
  done: (ts: number, seqs: readonly number[] | undefined) => void;
}

/**
 * The edge's bundles: parts submitted in one event-loop turn leave together (the check phase of
 * the turn, as the service's owner batcher), as one request to `subject` on one reply inbox.
 */
function bundler(nc: NatsConnection, subject: string): (part: Part) => void {
  const inbox = createInbox();
  const waiting = new Map<string, { parts: Part[]; sentAt: number }>();
  let next = 0;
  let turn: Part[] = [];
  nc.subscribe(`${inbox}.*`, {
    callback: (error, msg) => {
      if (error) return;
      const key = msg.subject.slice(inbox.length + 1);
      const bundle = waiting.get(key);
      if (!bundle) return;
      waiting.delete(key);
      answer(bundle.parts, decoder.decode(msg.data));
    },
  });
  setInterval(() => {
    const now = Date.now();
    for (const [key, bundle] of waiting) {
      if (now - bundle.sentAt < REPLY_TIMEOUT_MS) continue;
      waiting.delete(key);
      for (const part of bundle.parts) part.done(0, undefined);
    }
  }, 1_000).unref();
  // the owner's reply: `<ts> <seq> <seq> …`, one seq per line of the bundle in order, or `error`
  const answer = (parts: readonly Part[], text: string) => {
    const fields = text.split(' ');
    const lines = parts.reduce((sum, part) => sum + part.lines.length, 0);
    if (fields.length !== lines + 1) {
      for (const part of parts) part.done(0, undefined);
      return;
    }
    const ts = Number(fields[0]);
    let at = 1;
    for (const part of parts) part.done(ts, fields.slice(at, (at += part.lines.length)).map(Number));
  };
  const send = (parts: Part[]) => {
    const key = (next++).toString(36);
    waiting.set(key, { parts, sentAt: Date.now() });
    nc.publish(subject, encoder.encode(parts.map((part) => part.lines.join('\n')).join('\n')), { reply: `${inbox}.${key}` });
  };
  const flush = () => {
    const parts = turn;
    turn = [];
    let bundle: Part[] = [];
    let count = 0;
    for (const part of parts) {
      if (count > 0 && count + part.lines.length > MAX_BUNDLE_MESSAGES) {
        send(bundle);
        bundle = [];
        count = 0;
      }
      bundle.push(part);
      count += part.lines.length;
    }
    if (bundle.length > 0) send(bundle);
  };
  return (part) => {
    turn.push(part);
    if (turn.length === 1) setImmediate(flush);
  };
}

/** In the child: the edge, on a free loopback port; its bundles go to `prefix`'s owner. */
export async function serveHopsEdge(natsUrl: string, prefix: string): Promise<void> {
  const [{ default: Fastify }, { WebSocketServer }] = await Promise.all([import('fastify'), import('ws')]);
  const nc = await connect({ servers: natsUrl });
  const submit = bundler(nc, `${prefix}.owner`);
  const app = Fastify({ logger: false });
  const failed = (reply: import('fastify').FastifyReply) => reply.code(503).send({ error: 'owner unavailable' });
  app.post<{ Params: { channelId: string }; Body: { content: unknown } }>('/v1/channels/:channelId/messages', (request, reply) => {
    const channel = request.params.channelId;
    submit({
      lines: [`${channel} ${JSON.stringify(request.body.content)}`],
      done: (ts, seqs) => {
        if (!seqs) return void failed(reply);
        reply.code(201).header('content-type', 'application/json').send(`{"id":"${channel}:${seqs[0]}","seq":${seqs[0]},"timestamp":${ts}}`);
      },
    });
  });
  app.post<{ Body: { messages: { channelId: string; content: unknown }[] } }>('/v1/messages/batch', (request, reply) => {
    const { messages } = request.body;
    submit({
      lines: messages.map((m) => `${m.channelId} ${JSON.stringify(m.content)}`),
      done: (ts, seqs) => {
        if (!seqs) return void failed(reply);
        const results = seqs.map((seq, i) => `{"id":"${messages[i]!.channelId}:${seq}","seq":${seq},"timestamp":${ts}}`);
        reply
          .code(200)
          .header('content-type', 'application/json')
          .send(`{"results":[${results.join(',')}]}`);
      },
    });
  });
  // frames reach the edge only for channels with a socket here, as the gateway subscribes
  const channels = new Map<string, { sockets: Set<import('ws').WebSocket>; subscription: Subscription }>();
  const wss = new WebSocketServer({ noServer: true });
  app.server.on('upgrade', (request, socket, head) => {
    const channel = /^\/v1\/channels\/([^/?]+)/.exec(request.url ?? '')?.[1];
    if (!channel) return socket.destroy();
    wss.handleUpgrade(request, socket, head, (ws) => {
      let entry = channels.get(channel);
      if (!entry) {
        const sockets = new Set<import('ws').WebSocket>();
        const subscription = nc.subscribe(`${prefix}.frames.${channel}`, {
          callback: (error, msg) => {
            if (error) return;
            const text = decoder.decode(msg.data);
            for (const each of sockets) each.send(text);
          },
        });
        channels.set(channel, (entry = { sockets, subscription }));
      }
      const { sockets, subscription } = entry;
      sockets.add(ws);
      ws.on('close', () => {
        sockets.delete(ws);
        if (sockets.size > 0 || channels.get(channel)?.subscription !== subscription) return;
        channels.delete(channel);
        subscription.unsubscribe();
      });
      // ready once the server has the subscription: nothing published after it is missed
      void nc.flush().then(() => ws.send('{"op":"ready"}'));
    });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  announceListening(app.server.address());
}

/** Starts the owner and the edge (`node <entry> --serve=hops-…`); the edge's URL and both children (owner first). */
export async function startHops(entry: string, natsUrl: string, databaseUrl: string): Promise<{ url: string; owner: ChildProcess; edge: ChildProcess }> {
  const prefix = `benchhops${process.pid}`;
  const owner = await spawnListening('hops owner', ['--import', 'tsx', entry, '--serve=hops-owner', natsUrl, prefix, databaseUrl]);
  const edge = await spawnListening('hops edge', ['--import', 'tsx', entry, '--serve=hops-edge', natsUrl, prefix]);
  return { url: `http://127.0.0.1:${edge.port}`, owner: owner.child, edge: edge.child };
}
