/**
 * The message bus (NATS core). Guarantees the rest of the code relies on:
 * - publish is at-most-once and ordered per publisher connection; nothing here persists;
 * - request() to a subject with no subscriber fails at once with `NoRespondersError`, so a
 *   caller can tell "nobody owns this" (safe to retry) from "no answer in time" (unknown outcome);
 * - the connection reconnects forever; while it is down publishes are buffered by the client.
 */
import { readFileSync } from 'node:fs';
import { connect, credsAuthenticator, headers, type ConnectionOptions, type NatsConnection, type Msg, type MsgHdrs, ErrorCode, NatsError } from 'nats';

export { subjects, partitionOf, webhookPartitionOf, WEBHOOK_PARTITIONS, encodeToken, decodeToken, type Subjects } from './subjects.ts';
export type { NatsConnection, Msg, Subscription } from 'nats';

/**
 * The part of a NATS connection a listener of exact subjects uses: subscribing with a callback
 * that reads the frame's bytes, and the round trip that makes a subscription live. A
 * NatsConnection is one; a unit test hands a small fake instead.
 */
export interface Subscriber {
  subscribe(subject: string, options: { callback: (error: Error | null, msg: { data: Uint8Array }) => void }): { unsubscribe(): void };
  flush(): Promise<void>;
}

/** How to reach and authenticate to NATS (the `NATS_*` variables of every process). */
export interface NatsSettings {
  NATS_URL: string;
  NATS_USER?: string | undefined;
  NATS_PASSWORD?: string | undefined;
  NATS_TOKEN?: string | undefined;
  /** Path of a `.creds` file (user JWT and NKey seed). */
  NATS_CREDS_FILE?: string | undefined;
  /** Paths of PEM files; a CA or a client certificate turns TLS on. */
  NATS_TLS_CA?: string | undefined;
  NATS_TLS_CERT?: string | undefined;
  NATS_TLS_KEY?: string | undefined;
}

/**
 * nats.js options for `settings`. Credentials in the URL (`nats://user:pass@host`) work too, but
 * the variables keep them out of every place a URL is printed. Files are read here, once.
 */
export function natsConnectionOptions(settings: NatsSettings): ConnectionOptions {
  const options: ConnectionOptions = { servers: settings.NATS_URL.split(',').map((server) => server.trim()) };
  if (settings.NATS_USER !== undefined) options.user = settings.NATS_USER;
  if (settings.NATS_PASSWORD !== undefined) options.pass = settings.NATS_PASSWORD;
  if (settings.NATS_TOKEN !== undefined) options.token = settings.NATS_TOKEN;
  if (settings.NATS_CREDS_FILE !== undefined) options.authenticator = credsAuthenticator(readFileSync(settings.NATS_CREDS_FILE));
  if (settings.NATS_TLS_CA !== undefined || settings.NATS_TLS_CERT !== undefined) {
    options.tls = {
      ...(settings.NATS_TLS_CA !== undefined && { caFile: settings.NATS_TLS_CA }),
      ...(settings.NATS_TLS_CERT !== undefined && { certFile: settings.NATS_TLS_CERT }),
      ...(settings.NATS_TLS_KEY !== undefined && { keyFile: settings.NATS_TLS_KEY }),
    };
  }
  return options;
}

/** Connects with a URL alone (tests, tools) or with the full settings of a process. */
export async function connectBus(settings: string | NatsSettings, name: string): Promise<NatsConnection> {
  return connect({
    ...natsConnectionOptions(typeof settings === 'string' ? { NATS_URL: settings } : settings),
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
export { publishLog, publishLogs, logFramesOf, type LogFrame, type LogLevel } from './logs.ts';
export { watchLogInterest, stopWatchingLogInterest, logListened, LogListeners, LogInterestTable, ANNOUNCE_MS, KEPT_MS, STARTING_MS } from './log-interest.ts';
export { Requester, ConnectionLostError, type RequestCallback } from './requester.ts';
export { onDisconnect } from './disconnect.ts';
export {
  encodeBundle,
  decodeBundle,
  encodeBundleReply,
  decodeBundleReply,
  isBundle,
  isNodeProbe,
  NODE_PROBE,
  BundleError,
  PART_STATUS,
  MAX_BUNDLE_PARTS,
  type BundlePart,
  type ReplyPart,
  type PartStatus,
} from './node-bundle.ts';
export { OwnerDirectory, ownerAnnouncement, isOwnerAnnouncement, OWNER_ANNOUNCE_MS, OWNER_TTL_MS, type OwnerAnnouncement } from './owner-directory.ts';

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
