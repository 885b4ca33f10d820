/**
 * What the hostile-input fuzz test (test/hostile.fuzz.test.ts) accepts as an answer: a 4xx
 * envelope or a success over HTTP; on a socket, an error frame or a documented close code, read
 * one frame at a time by `openSocket`; and no internal error in a process's log.
 */
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import type { RunningProcess } from './cluster.ts';

/** Close codes a socket may end with on bad input (docs/limits.md). */
export const DOCUMENTED_CLOSE = new Set([1000, 4400, 4401, 4403, 4404, 4429, 4503]);

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export function assertAcceptable(what: string, answer: Answer): void {
  assert.ok(answer.status < 500, `${what} → ${answer.status} ${answer.text.slice(0, 300)}`);
  if (answer.status < 400) return;
  let body: any;
  try {
    body = JSON.parse(answer.text);
  } catch {
    assert.fail(`${what} → ${answer.status} without a JSON envelope: ${answer.text.slice(0, 200)}`);
  }
  assert.equal(typeof body.code, 'string', `${what} → ${answer.status} ${answer.text.slice(0, 200)}`);
  assert.equal(answer.headers['x-service-error'], body.code, `${what}: x-service-error header`);
  assert.doesNotMatch(answer.text, /\n\s*at |node_modules|\.[jt]s:\d+:\d+/, `${what}: stack trace in the body`);
}

/** Every internal error a process logged (refusals are not errors). */
export function internalErrors(proc: RunningProcess): string[] {
  return proc.output.filter((line) => /"level":(50|60)|internal error|uncaught|unhandled/i.test(line));
}

// ---- a socket that answers one frame at a time ------------------------------------------------

export type Outcome = { kind: 'frame'; frame: any } | { kind: 'closed'; code: number; reason: string } | { kind: 'silent' };

export async function openSocket(url: string) {
  const ws = new WebSocket(url.replace(/^http/, 'ws'));
  const queue: any[] = [];
  let wake: (() => void) | undefined;
  const state = { closed: false, code: 0, reason: '' };
  ws.on('message', (data) => {
    try {
      queue.push(JSON.parse(String(data)));
    } catch {
      queue.push({ op: 'unparseable', data: String(data) });
    }
    wake?.();
  });
  ws.on('close', (code, reason) => {
    Object.assign(state, { closed: true, code, reason: reason.toString() });
    wake?.();
  });
  ws.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('close', (code) => reject(new Error(`socket refused: ${code}`)));
  });
  // the channel socket says ready first: skip what came before the first exchange
  await new Promise((resolve) => setTimeout(resolve, 50));
  queue.length = 0;
  return {
    ws,
    get closed() {
      return state.closed;
    },
    /** Sends one frame and returns the first thing that happens: a frame back, the close, or silence for 1 s. */
    async exchange(payload: string | Buffer): Promise<Outcome> {
      queue.length = 0;
      if (state.closed) return { kind: 'closed', code: state.code, reason: state.reason };
      ws.send(payload);
      const deadline = Date.now() + 1_000;
      while (Date.now() < deadline) {
        const frame = queue.find((f) => f.op !== 'presence' && f.op !== 'ready' && f.op !== undefined);
        if (frame) return { kind: 'frame', frame };
        if (state.closed) return { kind: 'closed', code: state.code, reason: state.reason };
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 50);
        });
      }
      return { kind: 'silent' };
    },
  };
}
