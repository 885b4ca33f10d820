/**
 * `npm run bench -- usage`: what counting usage costs the publish path (docs/stats.md). Two
 * services side by side, each a gateway and a channel-node on a database and a NATS prefix of its
 * own (channel-nodes on one database would share its partition locks): one with
 * USAGE_COUNTING=off (the baseline), one counting (USAGE_FLUSH_MS as set, 5 s by default). The
 * single-publish case (50 keep-alive clients, 1,000 channels, closed loop) runs three times on
 * each, alternating off and on so the machine's drift falls on both; the table shows the medians,
 * with CPU µs per message of each process group per run. Goal: counting costs at most 3 % of
 * publish throughput (on ≥ 0.97 × off).
 */
import { createEnvironment } from '@rtm/auth';
import { deployLimits } from '@rtm/limits';
import type { Pool } from '@rtm/db';
import { createTestDatabase } from '../helpers/database.ts';
import type { RunningProcess } from '../helpers/cluster.ts';
import { byName, self } from './cpu-meter.ts';
import { CHANNELS, load, loadContext, type Result } from './lib/publish-load.ts';
import { profilingEnv, startGatewayAndNode, stopAll } from './lib/services.ts';
import { perSecond, reportGoal } from './report.ts';

const RUNS = 3;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Service {
  gateway: RunningProcess;
  node: RunningProcess;
  pool: Pool;
  secretKey: string;
}

async function main(): Promise<void> {
  const cleanups: (() => Promise<void>)[] = [];
  const processes: RunningProcess[] = [];
  try {
    const services = {} as Record<'off' | 'on', Service>;
    for (const mode of ['off', 'on'] as const) {
      const db = await createTestDatabase({ after: (fn: () => Promise<void>) => void cleanups.push(fn) });
      const env = await createEnvironment(db.pool, { organization: 'bench', project: 'bench', environment: 'usage' });
      await deployLimits(db.pool, env.environmentId, { environmentMessagesPerSecond: 1_000_000_000, secretKeyRequestsPerSecond: 1_000_000_000 });
      const own: Record<string, string> = {
        DATABASE_URL: db.url,
        NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
        NATS_PREFIX: `usage${mode}${process.pid}`,
        USAGE_COUNTING: mode,
        ...(process.env.USAGE_FLUSH_MS ? { USAGE_FLUSH_MS: process.env.USAGE_FLUSH_MS } : {}),
        ...profilingEnv(),
      };
      const [gateway, node] = await startGatewayAndNode(processes, own, own);
      services[mode] = { gateway, node, pool: db.pool, secretKey: env.secretKey };
    }
    const random = () => `bench-${Math.floor(Math.random() * CHANNELS)}`;
    const pid = (p: RunningProcess) => () => (p.child.pid === undefined ? [] : [p.child.pid]);
    const results: Record<'off' | 'on', Result[]> = { off: [], on: [] };
    for (let run = 1; run <= RUNS; run++) {
      for (const mode of ['off', 'on'] as const) {
        const { gateway, node, pool, secretKey } = services[mode];
        loadContext.analyze = () => pool.query('analyze channels, messages');
        loadContext.cpuGroups = {
          gateway: pid(gateway),
          'channel-node': pid(node),
          postgres: byName('postgres'),
          nats: byName('nats-server'),
          generator: self,
        };
        results[mode].push(await load(`server publish, counting ${mode}, run ${run}`, gateway.controlUrl, { authorization: `Bearer ${secretKey}` }, random));
      }
    }
    const off = median(results.off.map((r) => r.perSecond));
    const on = median(results.on.map((r) => r.perSecond));
    const ratio = on / off;
    process.stdout.write(
      `medians of ${RUNS}: counting off ${perSecond(off)}, on ${perSecond(on)}: on/off ${ratio.toFixed(3)} (cost ${((1 - ratio) * 100).toFixed(1)} %)\n`,
    );
    const { rows } = await services.on.pool.query<{ n: number }>('select coalesce(sum(messages_published_http), 0)::int as n from usage_minutes');
    process.stdout.write(`usage_minutes: ${rows[0]!.n} publishes counted by the counting service (priming and warm-ups included)\n`);
    reportGoal({
      path: `usage counting, server publish, ${CHANNELS} channels`,
      goal: '≥ 0.97× counting off',
      measured: perSecond(on),
      baseline: `counting off ${perSecond(off)}`,
      ratio,
      met: ratio >= 0.97,
    });
  } finally {
    await stopAll(processes);
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

await main();
process.exit(0);
