/**
 * The large-channel benchmark's report (test/bench/large-channel.bench.ts): one table of every
 * measure (storm, memory, occupancy, fan-out, neighbour, CPU and the load generator's own delay)
 * and its two goals.
 */
import type { IntervalHistogram } from 'node:perf_hooks';
import { reportGoal } from '../report.ts';
import type { Memory } from '../gateway-memory.ts';
import { fmt } from './figures.ts';
import { CONNECTIONS, MESSAGES, RATE, STORM_LIMIT_MS, ms } from './large-channel-options.ts';
import { outcomes } from './large-channel-subs.ts';
import type { Occupancy, PublishFigures } from './large-channel-peers.ts';
import type { CpuSnapshot, FanOut } from './large-channel-fanout.ts';

/** What one run measured. */
export interface LargeChannelRun {
  subscribedNow: number;
  complete: boolean;
  stormMs: number;
  stormOutcomes: Map<string, number>;
  stormPresence: { frames: number; bytes: number };
  settlePresence: { frames: number; bytes: number };
  before: Memory;
  after: Memory;
  truth: Occupancy;
  occupancyRoute: Occupancy | string;
  occupancyFrame: Occupancy | string;
  observerFrames: number;
  alone: PublishFigures;
  during: PublishFigures;
  cpuBefore: CpuSnapshot;
  cpuAfter: CpuSnapshot;
  lag: IntervalHistogram;
  fan: FanOut;
}

export function report(run: LargeChannelRun): void {
  const {
    subscribedNow,
    complete,
    stormMs,
    stormOutcomes,
    stormPresence,
    settlePresence,
    before,
    after,
    truth,
    occupancyRoute,
    occupancyFrame,
    alone,
    during,
    cpuBefore,
    cpuAfter,
    lag,
  } = run;
  const {
    deliveries,
    expected,
    every,
    lastSub,
    violations,
    publishFailures,
    ms: fanoutMs,
    cpuBefore: fanoutCpuBefore,
    cpuAfter: fanoutCpuAfter,
    lag: fanoutLag,
  } = run.fan;
  const stormS = stormMs / 1000;
  const pct = (measured: number, real: number) => `${((measured / real) * 100).toFixed(1)} %`;
  const occ = (value: Occupancy | string) =>
    typeof value === 'string'
      ? value
      : `${fmt(value.connections)} connections (${pct(value.connections, truth.connections)}), ${fmt(value.users)} users (${pct(value.users, truth.users)})`;
  const codes = (map: Map<string, number>) =>
    map.size === 0
      ? 'none'
      : [...map]
          .sort((a, b) => b[1] - a[1])
          .map(([k, v]) => `${k} × ${fmt(v)}`)
          .join(', ');
  const lines: [string, string][] = [
    ['connections (users), subscribed at the end', `${fmt(subscribedNow)} of ${fmt(CONNECTIONS)}`],
    [
      'storm: first open → all subscribed',
      complete ? `${stormS.toFixed(1)} s (${fmt(CONNECTIONS / stormS)} subscribed/s)` : `not reached in ${STORM_LIMIT_MS / 1000} s`,
    ],
    ['storm: closes and errors (by code)', codes(stormOutcomes)],
    [
      'storm: presence frames to subscribers',
      `${fmt(stormPresence.frames)} (${(stormPresence.frames / CONNECTIONS).toFixed(1)} × n), ${fmt(stormPresence.bytes / 1e6)} MB`,
    ],
    ['presence frames in the second after', `${fmt(settlePresence.frames)}, ${fmt(settlePresence.bytes / 1e6)} MB`],
    [
      'gateway RSS per connection (1 subscription)',
      `${fmt((after.rss - before.rss) / CONNECTIONS)} B (RSS ${fmt(before.rss / 1e6)} → ${fmt(after.rss / 1e6)} MB)`,
    ],
    ['gateway heap per connection', `${fmt((after.heap - before.heap) / CONNECTIONS)} B (heap ${fmt(before.heap / 1e6)} → ${fmt(after.heap / 1e6)} MB)`],
    [`occupancy route (truth ${fmt(truth.connections)} / ${fmt(truth.users)}, observer included)`, occ(occupancyRoute)],
    ["occupancy frames: observer's last", typeof occupancyFrame === 'string' ? occupancyFrame : `${occ(occupancyFrame)}; ${run.observerFrames} frames`],
    [
      `fan-out: ${MESSAGES} publishes at ${RATE}/s, publish → last subscriber p50 / p99`,
      `${ms(lastSub.getValueAtPercentile(50) / 1000)} / ${ms(lastSub.getValueAtPercentile(99) / 1000)} ms (every delivery ${ms(every.getValueAtPercentile(50) / 1000)} / ${ms(every.getValueAtPercentile(99) / 1000)} ms)`,
    ],
    [
      'fan-out: delivered (once each, in seq order)',
      `${fmt(deliveries)} of ${fmt(expected)}; missing ${fmt(violations.missing)}, duplicates ${fmt(violations.duplicates)}, out of order ${fmt(violations.outOfOrder)} ` +
        `(${fmt(violations.subscribersAffected)} subscribers affected); publish failures: ${codes(publishFailures)}`,
    ],
    [
      'fan-out: closes and errors after the storm',
      codes(new Map([...outcomes].map(([k, v]) => [k, v - (stormOutcomes.get(k) ?? 0)] as [string, number]).filter(([, v]) => v > 0))),
    ],
    [`neighbour publish p50 / p99, alone (${alone.ok} ok)`, `${ms(alone.p50)} / ${ms(alone.p99)} ms; failures: ${codes(alone.failed)}`],
    [`neighbour publish p50 / p99, during the storm (${during.ok} ok)`, `${ms(during.p50)} / ${ms(during.p99)} ms; failures: ${codes(during.failed)}`],
    ['neighbour p99 during / alone', (during.p99 / Math.max(0.001, alone.p99)).toFixed(2)],
  ];
  // the histogram holds the time between the monitor's timer turns (10 ms), not only the delay
  const late = (ns: number) => Math.max(0, ns / 1e6 - 10);
  const busyS = (cpuAfter['machine (every process)']! - cpuBefore['machine (every process)']!) / 1e6;
  for (const [name, value] of Object.entries(cpuAfter)) {
    const used = value - cpuBefore[name]!;
    lines.push([
      `storm CPU: ${name}`,
      `${fmt(used / 1e3)} ms CPU, ${((used / 1e6 / stormS) * 100).toFixed(0)} % of a core, ${fmt(used / CONNECTIONS)} µs per connection` +
        (name.startsWith('machine') ? ` (${((busyS / stormS / 2) * 100).toFixed(0)} % of 2 cores)` : ''),
    ]);
  }
  lines.push([
    'load generator event-loop delay during the storm (beyond its 10 ms timer)',
    `p50 ${ms(late(lag.percentile(50)))} / p99 ${ms(late(lag.percentile(99)))} / max ${ms(late(lag.max))} ms`,
  ]);
  const fanoutS = fanoutMs / 1000;
  for (const name of ['gateway', 'load generator (this process)', 'machine (every process)']) {
    const used = fanoutCpuAfter[name]! - fanoutCpuBefore[name]!;
    lines.push([
      `fan-out CPU (${fanoutS.toFixed(1)} s): ${name}`,
      `${((used / 1e6 / fanoutS) * 100).toFixed(0)} % of a core, ${fmt(used / Math.max(1, deliveries))} µs per delivery`,
    ]);
  }
  lines.push([
    'load generator event-loop delay during the fan-out (beyond its 10 ms timer)',
    `p50 ${ms(late(fanoutLag.percentile(50)))} / p99 ${ms(late(fanoutLag.percentile(99)))} / max ${ms(late(fanoutLag.max))} ms`,
  ]);
  process.stdout.write(`\n| measure | value |\n|---|---|\n${lines.map(([k, v]) => `| ${k} | ${v} |`).join('\n')}\n`);

  const ratio = during.p99 / Math.max(0.001, alone.p99);
  reportGoal({
    path: `neighbour publish p99, ${fmt(CONNECTIONS)} subscribers storming one channel`,
    goal: '≤ 3× alone (p99)',
    measured: `${ms(during.p99)} ms`,
    baseline: `alone ${ms(alone.p99)} ms`,
    ratio,
    met: ratio <= 3 && during.failed.size === 0,
  });
  const bad = violations.missing + violations.duplicates + violations.outOfOrder;
  reportGoal({
    path: `every subscriber gets every message once in order, ${fmt(CONNECTIONS)} subscribers`,
    goal: '0 violations',
    measured: `${fmt(bad)} violations`,
    baseline: '',
    ratio: bad,
    met: bad === 0 && complete && deliveries === expected,
  });
}
