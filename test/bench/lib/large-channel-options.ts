/**
 * The large-channel benchmark's options (environment) and constants
 * (test/bench/large-channel.bench.ts describes them), and how its figures are written.
 */
import type * as hdr from 'hdr-histogram-js';
import { histogram } from './figures.ts';

export const CONNECTIONS = Number(process.env.BENCH_LARGE_CONNECTIONS ?? 10_000);
export const OPEN_WINDOW = Number(process.env.BENCH_LARGE_OPEN_WINDOW ?? 1_000);
export const MESSAGES = Number(process.env.BENCH_LARGE_MESSAGES ?? 20);
export const RATE = Number(process.env.BENCH_LARGE_RATE ?? 2);
export const NEIGHBOUR_RATE = Number(process.env.BENCH_LARGE_NEIGHBOUR_RATE ?? 50);
export const ALONE_MS = Number(process.env.BENCH_LARGE_ALONE_MS ?? 10_000);
export const STORM_LIMIT_MS = Number(process.env.BENCH_LARGE_STORM_LIMIT_MS ?? 600_000);
export const DELIVERY_LIMIT_MS = Number(process.env.BENCH_LARGE_DELIVERY_LIMIT_MS ?? 60_000);
export const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
export const CHANNEL = 'large-room';
export const NEIGHBOUR_CHANNEL = 'neighbour-room';
/** The SDK's reconnect backoff (libs/client/src/client.ts DEFAULTS). */
export const RETRY_INITIAL_MS = 500;
export const RETRY_MAX_MS = 30_000;
/** The SDK gives up on a handshake that has not reached `connected` after this long. */
export const HANDSHAKE_TIMEOUT_MS = 15_000;
/** Before reading the gateway's memory, and after the storm for trailing presence frames. */
export const SETTLE_MS = 1_000;

/** Milliseconds with one decimal; `n/a` for what could not be measured. */
export const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
/** A latency histogram in µs, up to an hour. */
export const largeHistogram = (): hdr.Histogram => histogram(3_600_000_000);
