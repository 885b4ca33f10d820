/**
 * The large channel's fan-out (test/bench/large-channel.bench.ts): MESSAGES server publishes at
 * RATE a second once everyone is subscribed; each frame is matched to its publish by the
 * content's n (a frame may arrive before the publish's 201) and every subscriber's seqs are
 * checked: every published seq once, in order. Also the CPU readings the benchmark takes around
 * the storm and the fan-out.
 */
import { monitorEventLoopDelay, performance, type IntervalHistogram } from 'node:perf_hooks';
import type * as hdr from 'hdr-histogram-js';
import type { RunningProcess } from '../../helpers/cluster.ts';
import { cpuMicros, machineCpuMicros, postgresCpuMicros, selfCpuMicros } from '../cpu-meter.ts';
import { sleep } from './figures.ts';
import { DELIVERY_LIMIT_MS, MESSAGES, RATE, largeHistogram } from './large-channel-options.ts';
import { storm, type Sub } from './large-channel-subs.ts';

export type CpuSnapshot = Record<string, number>;

/** CPU µs used so far by each process of the run, this one and the whole machine. */
export function cpuSnapshot(gateway: RunningProcess, node: RunningProcess, nats: number[]): CpuSnapshot {
  return {
    gateway: cpuMicros(gateway.child.pid),
    'channel-node': cpuMicros(node.child.pid),
    postgres: postgresCpuMicros(),
    nats: nats.reduce((sum, pid) => sum + cpuMicros(pid), 0),
    'load generator (this process)': selfCpuMicros(),
    'machine (every process)': machineCpuMicros(),
  };
}

export interface Violations {
  missing: number;
  duplicates: number;
  outOfOrder: number;
  subscribersAffected: number;
}

/** Every subscribed subscriber must hold every published seq once, in order; what fell short, summed. */
export function orderViolations(subs: readonly Pick<Sub, 'state' | 'seqs'>[], published: readonly number[]): Violations {
  const wanted = [...published].sort((a, b) => a - b);
  const wantedSet = new Set(wanted);
  const violations = { missing: 0, duplicates: 0, outOfOrder: 0, subscribersAffected: 0 };
  for (const sub of subs) {
    if (sub.state !== 'subscribed') continue;
    const got = sub.seqs.filter((seq) => wantedSet.has(seq));
    const unique = new Set(got);
    const missing = wanted.length - unique.size;
    const duplicates = got.length - unique.size;
    let outOfOrder = 0;
    for (let i = 1; i < got.length; i++) if (got[i]! <= got[i - 1]!) outOfOrder++;
    violations.missing += missing;
    violations.duplicates += duplicates;
    violations.outOfOrder += outOfOrder;
    if (missing + duplicates + outOfOrder > 0) violations.subscribersAffected++;
  }
  return violations;
}

export interface FanOut {
  deliveries: number;
  expected: number;
  /** Publish sent → every delivery, and → the last subscriber's, per message (µs). */
  every: hdr.Histogram;
  lastSub: hdr.Histogram;
  violations: Violations;
  publishFailures: Map<string, number>;
  ms: number;
  cpuBefore: CpuSnapshot;
  cpuAfter: CpuSnapshot;
  /** The load generator's event-loop delay meanwhile. */
  lag: IntervalHistogram;
}

/** Publishes message `n` (`publish(n)`) on schedule, then waits for every delivery (or DELIVERY_LIMIT_MS). */
export async function fanOut(subs: readonly Sub[], publish: (n: number) => Promise<{ status: number; seq?: number }>, cpu: () => CpuSnapshot): Promise<FanOut> {
  const sentAt = new Map<number, number>();
  const reached = new Map<number, { n: number; lastAt: number }>();
  const every = largeHistogram();
  let deliveries = 0;
  let lastDelivery: () => void = () => {};
  const expected = subs.filter((s) => s.state === 'subscribed').length * MESSAGES;
  storm.onDelivery = (sub, seq, n, at) => {
    sub.seqs.push(seq);
    const t0 = n === undefined ? undefined : sentAt.get(n);
    if (t0 === undefined) return;
    deliveries++;
    every.recordValue(Math.max(1, Math.round((at - t0) * 1000)));
    const r = reached.get(n!) ?? { n: 0, lastAt: 0 };
    r.n++;
    r.lastAt = Math.max(r.lastAt, at);
    reached.set(n!, r);
    if (deliveries === expected) lastDelivery();
  };
  const delivered = new Promise<void>((resolve) => (lastDelivery = resolve));
  const published: number[] = [];
  const publishFailures = new Map<string, number>();
  const answers: Promise<void>[] = [];
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const cpuBefore = cpu();
  const fanoutStart = performance.now();
  for (let n = 0; n < MESSAGES; n++) {
    const due = fanoutStart + (n * 1000) / RATE;
    await sleep(Math.max(0, due - performance.now()));
    sentAt.set(n, performance.now());
    answers.push(
      publish(n)
        .then(({ status, seq }) => {
          if (status === 201 && seq !== undefined) published.push(seq);
          else publishFailures.set(`HTTP ${status}`, (publishFailures.get(`HTTP ${status}`) ?? 0) + 1);
        })
        .catch((error: Error) => void publishFailures.set(error.message, (publishFailures.get(error.message) ?? 0) + 1)),
    );
  }
  await Promise.all(answers);
  await Promise.race([delivered, sleep(DELIVERY_LIMIT_MS)]);
  const ms = performance.now() - fanoutStart;
  const cpuAfter = cpu();
  lag.disable();
  await sleep(500); // duplicates, if any, arrive now
  storm.onDelivery = undefined;

  const violations = orderViolations(subs, published);
  const lastSub = largeHistogram();
  for (const [n, r] of reached) lastSub.recordValue(Math.max(1, Math.round((r.lastAt - sentAt.get(n)!) * 1000)));
  return { deliveries, expected, every, lastSub, violations, publishFailures, ms, cpuBefore, cpuAfter, lag };
}
