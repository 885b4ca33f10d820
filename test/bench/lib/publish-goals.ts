/**
 * The publish benchmark's verdicts (test/bench/publish.bench.ts): one line of ratios, and its goal
 * rows (report.ts), each against a baseline measured in the same run. A row whose case or
 * baseline BENCH_CASES left out is not reported. The retired goals' figures (batch ÷ the single
 * route; the latency p99 alone) are printed in the ratio line and the latency lines, not as goals.
 */
import { perSecond, reportGoal } from '../report.ts';
import { BATCH_SIZE, CHANNELS, CLIENTS, MANY_CLIENTS, type Result } from './publish-load.ts';

/** One side of the latency case: publish → frame percentiles in ms, and frames received of sent. */
export interface Latency {
  p50: number;
  p99: number;
  frames: number;
  sent: number;
}

/** The latency case: the service and the bare hops at the same rate, in the same run. */
export interface LatencyPair {
  rate: number;
  rtm: Latency;
  floor: Latency;
}

/** A throughput goal: `ours` ≥ `times` × `base`. */
function throughputGoal(path: string, ours: Result | undefined, base: Result | undefined, baseName: string, times: number, unit = 'msg/s'): void {
  if (!ours || !base || ours.perSecond === 0 || base.perSecond === 0) return; // a case left out by BENCH_CASES
  const value = ours.perSecond / base.perSecond;
  reportGoal({
    path,
    goal: `≥ ${times === 1 ? '1.0' : times}× ${baseName}`,
    measured: perSecond(ours.perSecond),
    baseline: `${baseName} ${perSecond(base.perSecond, unit)}`,
    ratio: value,
    met: value >= times,
  });
}

/** Prints the ratio line and reports every goal the run has the figures for. */
export function reportPublishGoals(results: Record<string, Result>, latency: LatencyPair | undefined): void {
  const r = results;
  const ratio = (a: Result | undefined, b: Result | undefined) => (a?.perSecond && b?.perSecond ? (a.perSecond / b.perSecond).toFixed(2) : 'n/a');
  process.stdout.write(
    `\nratios: rtm / naive = ${ratio(r.rtm, r.naive)} (${CHANNELS} channels), ` +
      `${ratio(r.rtmHot, r.naiveHot)} (hot channel), ${ratio(r.rtmHooks, r.naiveHooks)} (webhooks on); ` +
      `rtm / bare Fastify = ${ratio(r.rtm, r.bare)} (${CLIENTS} clients), ${ratio(r.rtmMany, r.bareMany)} (${MANY_CLIENTS} clients); ` +
      `rtm / bare hops = ${ratio(r.rtm, r.hops)} (${CLIENTS} clients), ${ratio(r.rtmMany, r.hopsMany)} (${MANY_CLIENTS} clients); ` +
      `batch / single route = ${ratio(r.rtmBatch, r.rtm)}, batch / bare Fastify = ${ratio(r.rtmBatch, r.bare)}, ` +
      `batch / bare batch hops = ${ratio(r.rtmBatch, r.hopsBatch)}\n`,
  );
  const single = `server publish, ${CHANNELS} channels`;
  throughputGoal(`${single}, ${CLIENTS} clients (vs bare hops)`, r.rtm, r.hops, `bare hops at ${CLIENTS} clients`, 0.6);
  throughputGoal(`${single}, ${MANY_CLIENTS} clients (vs bare hops)`, r.rtmMany, r.hopsMany, `bare hops at ${MANY_CLIENTS} clients`, 0.6);
  throughputGoal(`${single}, ${MANY_CLIENTS} clients (vs bare Fastify)`, r.rtmMany, r.bareMany, `bare Fastify at ${MANY_CLIENTS} clients`, 0.35, 'req/s');
  const batch = `batch publish, ${BATCH_SIZE} per request, ${CHANNELS} channels`;
  throughputGoal(`${batch} (msg/s vs bare Fastify req/s)`, r.rtmBatch, r.bare, `bare Fastify at ${CLIENTS} clients`, 1.0, 'req/s');
  throughputGoal(`${batch} (vs bare batch hops)`, r.rtmBatch, r.hopsBatch, 'bare batch hops', 0.6);
  if (latency) {
    const { rate, rtm, floor } = latency;
    const complete = rtm.frames === rtm.sent;
    const p99 = rtm.p99 / Math.max(0.001, floor.p99);
    reportGoal({
      path: 'publish → socket frame p99 at half the maximum rate (vs bare hops)',
      goal: '≤ 1.30× bare hops p99',
      measured: `${rtm.p99.toFixed(1)} ms at ${perSecond(rate)}${complete ? '' : `, ${rtm.frames} of ${rtm.sent} frames`}`,
      baseline: `bare hops p99 ${floor.p99.toFixed(1)} ms`,
      ratio: p99,
      met: p99 <= 1.3 && complete,
    });
    // the ratio column of this row is the difference in ms: the goal is an allowance, not a factor
    const over = rtm.p50 - floor.p50;
    reportGoal({
      path: 'publish → socket frame p50 at half the maximum rate (vs bare hops)',
      goal: '≤ bare hops p50 + 2 ms (ratio: the difference, ms)',
      measured: `${rtm.p50.toFixed(1)} ms at ${perSecond(rate)}${complete ? '' : `, ${rtm.frames} of ${rtm.sent} frames`}`,
      baseline: `bare hops p50 ${floor.p50.toFixed(1)} ms`,
      ratio: over,
      met: over <= 2 && complete,
    });
  }
  // the earlier goals, against naive pg and bare Fastify at CLIENTS clients
  throughputGoal(single, r.rtm, r.naive, 'naive pg', 5);
  throughputGoal(`${single} (vs bare)`, r.rtm, r.bare, 'bare Fastify', 0.4, 'req/s');
  throughputGoal(`${single}, webhooks on`, r.rtmHooks, r.naiveHooks, 'naive pg + add_job', 5);
  throughputGoal(`${single}, webhooks on (vs bare)`, r.rtmHooks, r.bare, 'bare Fastify', 0.4, 'req/s');
  throughputGoal('server publish, one hot channel', r.rtmHot, r.naiveHot, 'naive pg', 5);
}
