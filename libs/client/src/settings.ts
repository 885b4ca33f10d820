import { systemClock, type Clock } from './clock.ts';
import { RtmError } from './errors.ts';
import { parseBaseUrl } from './frames.ts';
import { transportsOf, type TransportName } from './transport.ts';
import type { ClientOptions, FetchLike, WebSocketConstructor } from './types.ts';

const DEFAULTS = {
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  suspendAfterMs: 60_000,
  webSocketRetryMs: 60_000,
  maxQueuedPublishes: 100,
  heartbeatMs: 30_000,
};

/** `createClient`'s options, checked, with their defaults. */
export interface ClientSettings {
  getToken: () => string | Promise<string>;
  /** Undefined when neither given nor global (Node 20 without `ws`): connecting then fails with a clear error. */
  WebSocket: WebSocketConstructor | undefined;
  /** The given one, or the global one called as a plain function (a browser's refuses another `this`); undefined without either. */
  fetch: FetchLike | undefined;
  transports: TransportName[];
  urls: { socket: string; http: string };
  clock: Clock;
  random: () => number;
  retry: { initialMs: number; maxMs: number };
  suspendAfterMs: number;
  webSocketRetryMs: number;
  heartbeatMs: number;
  maxQueuedPublishes: number;
}

export function clientSettings(options: ClientOptions): ClientSettings {
  if (!options || typeof options.getToken !== 'function') throw new RtmError('invalid_request', 'getToken must be a function');
  return {
    getToken: options.getToken,
    WebSocket: options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket,
    fetch: options.fetch ?? globalFetch(),
    transports: transportsOf(options.transports),
    urls: parseBaseUrl(options.url),
    clock: options.clock ?? systemClock,
    random: options.random ?? Math.random,
    retry: {
      initialMs: positive(options.reconnect?.initialDelayMs, DEFAULTS.initialDelayMs, 'reconnect.initialDelayMs'),
      maxMs: positive(options.reconnect?.maxDelayMs, DEFAULTS.maxDelayMs, 'reconnect.maxDelayMs'),
    },
    suspendAfterMs: positive(options.reconnect?.suspendAfterMs, DEFAULTS.suspendAfterMs, 'reconnect.suspendAfterMs'),
    webSocketRetryMs: positive(options.reconnect?.webSocketRetryMs, DEFAULTS.webSocketRetryMs, 'reconnect.webSocketRetryMs'),
    heartbeatMs: positive(options.heartbeatMs, DEFAULTS.heartbeatMs, 'heartbeatMs'),
    maxQueuedPublishes: positive(options.maxQueuedPublishes, DEFAULTS.maxQueuedPublishes, 'maxQueuedPublishes'),
  };
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new RtmError('invalid_request', `${name} must be a positive number`);
  return value;
}

function globalFetch(): FetchLike | undefined {
  const global = globalThis as { fetch?: FetchLike };
  return typeof global.fetch === 'function' ? (url, init) => global.fetch!(url, init) : undefined;
}
