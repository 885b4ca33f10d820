/**
 * The fairness benchmark's options, read from the environment (test/bench/fairness.bench.ts).
 */
export const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 8_000);
export const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 2_000);
export const QUIET_CLIENTS = Number(process.env.BENCH_QUIET_CLIENTS ?? 4);
export const QUIET_PAUSE_MS = Number(process.env.BENCH_QUIET_PAUSE_MS ?? 20);
export const FLOOD_CLIENTS = Number(process.env.BENCH_FLOOD_CLIENTS ?? 50);
export const STORM_SUBSCRIBES = Number(process.env.BENCH_STORM_SUBSCRIBES ?? 2_000);
export const STORM_CONNECTIONS = Number(process.env.BENCH_STORM_CONNECTIONS ?? 10);
export const SLOW_SOCKETS = Number(process.env.BENCH_SLOW_SOCKETS ?? 2_000);
export const SLOW_RATE = Number(process.env.BENCH_SLOW_RATE ?? 20);
export const SLOW_BYTES = Number(process.env.BENCH_SLOW_BYTES ?? 1_000);
export const CASES = new Set((process.env.BENCH_FAIRNESS_CASES ?? 'publish,webhooks,storm,slow').split(','));
