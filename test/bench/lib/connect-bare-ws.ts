/**
 * The connect benchmark's baseline (test/bench/connect.bench.ts): a bare `ws` server in a child
 * process answering `subscribe` with `subscribed` (a Map of channel → sockets), and per message a
 * NATS request whose body is the frame, sent as it is to the channel's sockets, then answered (the
 * ceiling of `ws` here). It reports its own memory over NATS (process.memoryUsage() after a GC).
 */
import { createServer } from 'node:http';
import type { ChildProcess } from 'node:child_process';
import type WebSocket from 'ws';
import { WebSocketServer } from 'ws';
import { connectBus, decodeJson, decodeText, encodeJson, type NatsConnection } from '@rtm/bus';
import { Inspector, type Memory } from '../gateway-memory.ts';
import { announceListening, spawnListening } from './child-server.ts';

/** In the child: the server, its channels' NATS subjects under `prefix`, and its memory subject. */
export async function serveBareWs(natsUrl: string, prefix: string): Promise<void> {
  const nc = await connectBus(natsUrl, 'bench-bare-ws');
  const channels = new Map<string, Set<WebSocket>>();
  const server = createServer();
  const wss = new WebSocketServer({ server });
  wss.on('connection', (ws) => {
    const mine = new Set<string>();
    ws.send(JSON.stringify({ op: 'connected' }));
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { op: string; ref: number; channelId: string };
      if (frame.op !== 'subscribe') return;
      let set = channels.get(frame.channelId);
      if (!set) channels.set(frame.channelId, (set = new Set()));
      set.add(ws);
      mine.add(frame.channelId);
      ws.send(JSON.stringify({ op: 'subscribed', ref: frame.ref, channelId: frame.channelId, lastSeq: 0 }));
    });
    ws.on('close', () => {
      for (const channelId of mine) {
        const set = channels.get(channelId);
        set?.delete(ws);
        if (set?.size === 0) channels.delete(channelId);
      }
    });
  });
  const start = prefix.length + 4; // `${prefix}.ch.`
  nc.subscribe(`${prefix}.ch.>`, {
    callback: (error, msg) => {
      if (error) return;
      const text = decodeText(msg.data);
      const set = channels.get(msg.subject.slice(start));
      if (set) for (const ws of set) ws.send(text);
      msg.respond();
    },
  });
  nc.subscribe(`${prefix}.memory`, {
    callback: (error, msg) => {
      if (error) return;
      (globalThis as { gc?: () => void }).gc?.();
      const usage = process.memoryUsage();
      msg.respond(encodeJson({ heap: usage.heapUsed, rss: usage.rss }));
    },
  });
  server.listen(0, '127.0.0.1', () => announceListening(server.address()));
}

/**
 * Starts the bare server as `node <entry> --serve <natsUrl> <prefix>` (the benchmark's own file);
 * with `profile`, it also listens for an inspector (loopback only) and this connects to it.
 */
export async function startBareWs(
  entry: string,
  natsUrl: string,
  prefix: string,
  profile: boolean,
): Promise<{ url: string; child: ChildProcess; inspector?: Inspector }> {
  const flags = profile ? ['--expose-gc', '--inspect=127.0.0.1:0'] : ['--expose-gc'];
  const errors: string[] = [];
  const { port, child } = await spawnListening('bare ws', [...flags, '--import', 'tsx', entry, '--serve', natsUrl, prefix], (line) => {
    errors.push(line);
    if (!line.includes('Debugger') && !line.includes('inspector') && !line.includes('nodedir')) process.stderr.write(`bare ws: ${line}\n`);
  });
  return { url: `ws://127.0.0.1:${port}/`, child, inspector: profile ? await Inspector.of('bare ws', errors) : undefined };
}

export async function bareMemory(nc: NatsConnection, prefix: string): Promise<Memory> {
  return decodeJson<Memory>((await nc.request(`${prefix}.memory`, new Uint8Array(), { timeout: 10_000 })).data);
}
