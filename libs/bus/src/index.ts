/**
 * The message bus (NATS core). Guarantees the rest of the code relies on:
 * - publish is at-most-once and ordered per publisher connection; nothing here persists;
 * - request() to a subject with no subscriber fails at once with `NoRespondersError`, so a
 *   caller can tell "nobody owns this" (safe to retry) from "no answer in time" (unknown outcome);
 * - the connection reconnects forever; while it is down publishes are buffered by the client.
 */
import { connect, headers, type NatsConnection, type Msg, type MsgHdrs, ErrorCode, NatsError } from 'nats';

export { subjects, partitionOf, encodeToken, decodeToken, type Subjects } from './subjects.ts';
export type { NatsConnection, Msg, Subscription } from 'nats';

export async function connectBus(url: string, name: string): Promise<NatsConnection> {
  return connect({
    servers: url.split(','),
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    pingInterval: 10_000,
    // every request() otherwise captures a stack trace (new Error) just in case it fails: a
    // measurable share of the gateway's CPU on the publish path
    noAsyncTraces: true,
  });
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export const encodeJson = (value: unknown): Uint8Array => encoder.encode(JSON.stringify(value));
export const decodeJson = <T = unknown>(data: Uint8Array): T => JSON.parse(decoder.decode(data)) as T;
export const encodeText = (text: string): Uint8Array => encoder.encode(text);
export const decodeText = (data: Uint8Array): string => decoder.decode(data);

export function isNoResponders(error: unknown): boolean {
  return error instanceof NatsError && error.code === ErrorCode.NoResponders;
}

export function isTimeout(error: unknown): boolean {
  return error instanceof NatsError && error.code === ErrorCode.Timeout;
}

/** Answers a request with JSON. */
export function reply(msg: Msg, value: unknown): void {
  msg.respond(encodeJson(value));
}
export { publishLog, type LogFrame, type LogLevel } from './logs.ts';

const DEADLINE_HEADER = 'rtm-ttl-ms';

/**
 * Headers telling a request's handler how long its caller will wait for the answer. The handler
 * counts from receipt (no clocks compared across machines) and may skip work nobody awaits.
 */
export function deadlineHeaders(ttlMs: number): MsgHdrs {
  const h = headers();
  h.set(DEADLINE_HEADER, String(Math.max(0, Math.floor(ttlMs))));
  return h;
}

/** When, on this process's clock, the caller of `msg` stops waiting (undefined: no deadline). */
export function deadlineOf(msg: Msg, receivedAt: number): number | undefined {
  const ttl = Number(msg.headers?.get(DEADLINE_HEADER));
  return msg.headers?.has(DEADLINE_HEADER) && Number.isFinite(ttl) ? receivedAt + ttl : undefined;
}
