/**
 * The reactions benchmark's two load generators (test/bench/reactions.bench.ts), each forked in
 * a process of its own so that neither's work delays the other's timings, nor the benchmark's:
 *
 *   publish  single server publishes (`POST /v1/channels/{id}/messages`, secret key) to the
 *            channel at `rate` a second over a few keep-alive connections;
 *   react    reactions (`POST /v1/channels/{id}/messages/{messageId}/reactions`) to ONE message
 *            at `rate` a second over many keep-alive connections, reaction n by user `fan-<n>`
 *            (every reaction a different user, so each one changes the summary) with one of
 *            REACTION_TYPES in turn: on the realtime edge with that user's token (`via: 'edge'`,
 *            tokens signed at start with the environment's key), or on the control plane with
 *            the secret key and `userId` (`via: 'control'`).
 *
 * Both are open loop: request n leaves when it is due (n / rate seconds after `run`), answered or
 * not, so a slow service shows as latency and never as a lower rate; how late each left is
 * recorded apart (the generator's own lateness). Latency is request sent → answer received.
 *
 * Driven over IPC, one answer per order: first the config (answered once ready), then `run` starts sending, `hold` stops and waits for what is
 * in flight; `phase` starts a phase (figures attributed to the phase a request was sent in);
 * `take` waits for the phase's requests to end, answers its figures and starts the next; `stop`
 * exits.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import * as hdr from 'hdr-histogram-js';
import { Pool as HttpPool } from 'undici';
import { signToken, USER_TOKEN_AUDIENCE } from '@rtm/auth';
import { histogram } from './figures.ts';

export const REACTION_TYPES = ['thumbsup', 'heart', 'laugh', 'party', 'fire', 'clap', 'wow', 'sad'] as const;

export type LoadConfig =
  | { mode: 'publish'; url: string; secretKey: string; rate: number; channelId: string; connections: number }
  | {
      mode: 'react';
      url: string;
      rate: number;
      channelId: string;
      messageId: string;
      connections: number;
      via: 'edge' | 'control';
      secretKey: string;
      /** edge: the environment's signing key, to sign `users` tokens at start. */
      signing?: { id: string; environmentId: string; secretHex: string };
      users: number;
    };

/** What `take` answers for a phase. */
export interface PhaseFigures {
  sent: number;
  ok: number;
  /** Failures by HTTP status or error code. */
  failed: [string, number][];
  /** The first few failures' texts. */
  samples: string[];
  /** Latency (µs) of the successful requests, hdr compressed base64 (merge phases with `add`). */
  latency: string;
  /** How late requests left against their schedule, µs. */
  latenessP99: number;
  latenessMax: number;
  /** This process's event-loop delay over the phase, ms. */
  loopDelayP99Ms: number;
  /** The most requests in flight at once, and the connections they share (more in flight: some waited for one). */
  mostInFlight: number;
  connections: number;
  elapsedMs: number;
}

const HIGHEST = 3_600_000_000;

interface Phase {
  latency: hdr.Histogram;
  lateness: hdr.Histogram;
  sent: number;
  ok: number;
  failed: Map<string, number>;
  samples: string[];
  inFlight: Set<Promise<void>>;
  /** The most requests in flight at once (past the connections, they wait for one). */
  mostInFlight: number;
  startedAt: number;
}

const newPhase = (): Phase => ({
  latency: histogram(HIGHEST),
  lateness: histogram(HIGHEST),
  sent: 0,
  ok: 0,
  failed: new Map(),
  samples: [],
  inFlight: new Set(),
  mostInFlight: 0,
  startedAt: performance.now(),
});

async function main(config: LoadConfig, send: (answer: unknown) => void): Promise<void> {
  const http = new HttpPool(config.url, { connections: config.connections, pipelining: 1 });
  const tokens: string[] = [];
  if (config.mode === 'react' && config.via === 'edge') {
    const { id, environmentId, secretHex } = config.signing!;
    const key = { id, environmentId, secret: new Uint8Array(Buffer.from(secretHex, 'hex')) };
    for (let n = 0; n < config.users; n++) {
      tokens.push(
        (await signToken(key, { issuer: process.env.TOKEN_ISSUER ?? 'rtm', audience: USER_TOKEN_AUDIENCE, subject: `fan-${n}`, ttlSeconds: 3_600 })).token,
      );
    }
  }
  const request = requestOf(config, tokens);
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  let phase = newPhase();
  let n = 0;
  let inFlight = 0;
  let running: { startedAt: number } | undefined;
  let pacer: Promise<void> | undefined;

  const fire = (lateMs: number) => {
    const current = phase;
    current.sent++;
    current.lateness.recordValue(Math.max(1, Math.round(lateMs * 1000)));
    const t0 = performance.now();
    const p = request(n++)
      .then(({ status, ok, text }) => {
        if (ok) {
          current.ok++;
          current.latency.recordValue(Math.max(1, Math.round((performance.now() - t0) * 1000)));
          return;
        }
        current.failed.set(`HTTP ${status}`, (current.failed.get(`HTTP ${status}`) ?? 0) + 1);
        if (current.samples.length < 3) current.samples.push(`${status} ${text.slice(0, 200)}`);
      })
      .catch((error: Error & { code?: string }) => {
        const code = error.code ?? error.message;
        current.failed.set(code, (current.failed.get(code) ?? 0) + 1);
      })
      .finally(() => current.inFlight.delete(p));
    current.inFlight.add(p);
    inFlight++;
    if (inFlight > current.mostInFlight) current.mostInFlight = inFlight;
    void p.finally(() => inFlight--);
  };

  // on schedule: every millisecond, whatever is due by now leaves
  const pace = async (state: { startedAt: number }) => {
    let sent = 0;
    while (running === state) {
      const elapsed = performance.now() - state.startedAt;
      const due = Math.floor((elapsed / 1000) * config.rate);
      for (; sent < due; sent++) fire(elapsed - (sent / config.rate) * 1000);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  };

  send({ ready: true, tokens: tokens.length });
  process.on('message', async (order: { op: string }) => {
    switch (order.op) {
      case 'run':
        if (!running) {
          running = { startedAt: performance.now() };
          pacer = pace(running);
        }
        return send(null);
      case 'hold':
        running = undefined;
        await pacer;
        await Promise.all(phase.inFlight);
        return send(null);
      case 'phase':
        phase = newPhase();
        loop.reset();
        return send(null);
      case 'take': {
        const done = phase;
        const elapsedMs = performance.now() - done.startedAt;
        phase = newPhase();
        const loopDelayP99Ms = loop.percentile(99) / 1e6;
        loop.reset();
        await Promise.all(done.inFlight);
        const figures: PhaseFigures = {
          sent: done.sent,
          ok: done.ok,
          failed: [...done.failed],
          samples: done.samples,
          latency: hdr.encodeIntoCompressedBase64(done.latency),
          latenessP99: done.lateness.getValueAtPercentile(99),
          latenessMax: done.lateness.maxValue,
          loopDelayP99Ms,
          mostInFlight: done.mostInFlight,
          connections: config.connections,
          elapsedMs,
        };
        return send(figures);
      }
      case 'stop':
        running = undefined;
        await pacer;
        await Promise.all(phase.inFlight);
        await http.close();
        return process.send!(null, () => process.exit(0));
    }
  });

  function requestOf(c: LoadConfig, userTokens: string[]): (n: number) => Promise<{ status: number; ok: boolean; text: string }> {
    const json = { 'content-type': 'application/json' };
    if (c.mode === 'publish') {
      const headers = { ...json, authorization: `Bearer ${c.secretKey}` };
      const body = JSON.stringify({ content: { text: 'a steady message beside the storm', n: 42 } });
      const path = `/v1/channels/${encodeURIComponent(c.channelId)}/messages`;
      return async () => {
        const res = await http.request({ method: 'POST', path, headers, body });
        const text = await res.body.text();
        return { status: res.statusCode, ok: res.statusCode === 201, text };
      };
    }
    const path = `/v1/channels/${encodeURIComponent(c.channelId)}/messages/${encodeURIComponent(c.messageId)}/reactions`;
    const control = { ...json, authorization: `Bearer ${c.secretKey}` };
    return async (i) => {
      const type = REACTION_TYPES[i % REACTION_TYPES.length]!;
      // past the users signed, users repeat: their reaction is then already there (answered, no change)
      const user = i % c.users;
      const edge = c.via === 'edge';
      const res = await http.request({
        method: 'POST',
        path,
        headers: edge ? { ...json, authorization: `Bearer ${userTokens[user]}` } : control,
        body: JSON.stringify(edge ? { type } : { type, userId: `fan-${user}` }),
      });
      const text = await res.body.text();
      return { status: res.statusCode, ok: res.statusCode === 200, text };
    };
  }
}

if (!process.send) {
  process.stderr.write('usage: forked with IPC by lib/reaction-peers.ts, which sends its config first\n');
  process.exit(64);
}
const reply = process.send.bind(process);
// the first message is the config (over IPC: the signing key stays off the command line)
process.once('message', (config: LoadConfig) => void main(config, (answer) => reply(answer)));
