/**
 * What held a service process's event loop during a window of a benchmark, read from its
 * /internal/metrics (prom-client's default metrics):
 * - garbage collection by kind (minor, major, incremental, weakcb): how many collections, their
 *   total and their longest possible pause (the upper bound of the highest non-empty bucket);
 * - event-loop delay: prom-client resets its delay histogram at every scrape, so a scrape at the
 *   start of the window and one at its end give the delay's p99 and maximum within the window.
 *   prom-client samples it with a 10 ms timer, and the figures include that interval: an idle
 *   process reads ~11 ms, so a p99 of 25 ms means the loop was held ~15 ms at a time.
 * - a channel-node's commits (`channel_commit_seconds`, `channel_commit_batch_size`): how many,
 *   their mean size and duration, and the bound of their p99 (the histogram bucket that holds it);
 *   of that, the wait for a lane (`channel_commit_lane_wait_seconds`), and the merged transactions
 *   (`channel_transaction_seconds`, `channel_transaction_commands`);
 * - a gateway's publishes from the moment they leave for the owner until answered
 *   (`gateway_publish_seconds`, every label set together).
 * `start()` scrapes once (resetting the delay histogram) and returns `end()`, which scrapes again.
 */

export interface Pauses {
  /** Collections of each kind during the window: count, total ms, longest pause ≤ ms. */
  gc: Record<string, { count: number; totalMs: number; longestAtMostMs: number }>;
  /** Event-loop delay within the window, ms. */
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  /** A channel-node's commits in the window (none for other processes). */
  commits?: { count: number; meanMessages: number; meanMs: number; p99AtMostMs: number };
  /** A gateway's publishes, sent to the owner until answered (none for other processes). */
  ownerRoundTrips?: { count: number; meanMs: number; p99AtMostMs: number };
  /** Its merged transactions, and the partition batches' wait for a lane (none for other processes). */
  transactions?: { count: number; meanCommands: number; meanMs: number; p99AtMostMs: number; laneWaitMeanMs: number; laneWaitP99AtMostMs: number };
}

interface Scrape {
  gcCount: Map<string, number>;
  gcSum: Map<string, number>;
  /** `${kind} ${le}` → cumulative count. */
  gcBuckets: Map<string, number>;
  loopP99: number;
  loopMax: number;
  /** Other histograms' series (`name_sum`, `name_count`, `name_bucket le`) → value. */
  series: Map<string, number>;
}

const HISTOGRAM_SERIES =
  /^(channel_commit_seconds|channel_commit_batch_size|channel_commit_lane_wait_seconds|channel_transaction_seconds|channel_transaction_commands|gateway_publish_seconds)_(sum|count|bucket)[{ ]/;

async function scrape(internalUrl: string): Promise<Scrape> {
  const text = await (await fetch(`${internalUrl}/internal/metrics`)).text();
  const out: Scrape = { gcCount: new Map(), gcSum: new Map(), gcBuckets: new Map(), loopP99: 0, loopMax: 0, series: new Map() };
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    const kind = /kind="([a-z]+)"/.exec(line)?.[1];
    if (line.startsWith('nodejs_gc_duration_seconds_count') && kind) out.gcCount.set(kind, value);
    else if (line.startsWith('nodejs_gc_duration_seconds_sum') && kind) out.gcSum.set(kind, value);
    else if (line.startsWith('nodejs_gc_duration_seconds_bucket') && kind) {
      const le = /le="([^"]+)"/.exec(line)?.[1];
      if (le) out.gcBuckets.set(`${kind} ${le}`, value);
    } else if (line.startsWith('nodejs_eventloop_lag_p99_seconds')) out.loopP99 = value;
    else if (line.startsWith('nodejs_eventloop_lag_max_seconds')) out.loopMax = value;
    else {
      const series = HISTOGRAM_SERIES.exec(line);
      const le = series && /le="([^"]+)"/.exec(line)?.[1];
      // a histogram's label sets (a gateway's publishes by sender and outcome) added together
      const key = series && `${series[1]}_${series[2]}${le ? ` ${le}` : ''}`;
      if (key) out.series.set(key, (out.series.get(key) ?? 0) + value);
    }
  }
  return out;
}

/** Starts a window on the process whose internal server is at `internalUrl`. */
export async function pausesWindow(internalUrl: string): Promise<{ end: () => Promise<Pauses> }> {
  const before = await scrape(internalUrl);
  return {
    async end() {
      const after = await scrape(internalUrl);
      const gc: Pauses['gc'] = {};
      for (const [kind, count] of after.gcCount) {
        const n = count - (before.gcCount.get(kind) ?? 0);
        if (n <= 0) continue;
        // the smallest bucket bound that holds every collection of the window bounds the longest
        const bounds = [...after.gcBuckets.keys()]
          .filter((key) => key.startsWith(`${kind} `))
          .map((key) => key.slice(kind.length + 1))
          .filter((le) => le !== '+Inf')
          .map(Number)
          .sort((a, b) => a - b);
        const inWindow = (le: number) => (after.gcBuckets.get(`${kind} ${le}`) ?? 0) - (before.gcBuckets.get(`${kind} ${le}`) ?? 0);
        const bound = bounds.find((le) => inWindow(le) >= n);
        gc[kind] = {
          count: n,
          totalMs: ((after.gcSum.get(kind) ?? 0) - (before.gcSum.get(kind) ?? 0)) * 1000,
          longestAtMostMs: bound === undefined ? Infinity : bound * 1000,
        };
      }
      const delta = (key: string) => (after.series.get(key) ?? 0) - (before.series.get(key) ?? 0);
      // the bucket bound, in ms, that holds 99 % of a histogram's observations in the window
      const p99AtMostMs = (name: string) => {
        const count = delta(`${name}_count`);
        const bounds = [...after.series.keys()]
          .filter((key) => key.startsWith(`${name}_bucket `) && !key.endsWith('+Inf'))
          .map((key) => Number(key.slice(`${name}_bucket `.length)))
          .sort((a, b) => a - b);
        const bound = bounds.find((le) => delta(`${name}_bucket ${le}`) >= count * 0.99);
        return bound === undefined ? Infinity : bound * 1000;
      };
      const mean = (name: string) => delta(`${name}_sum`) / Math.max(1, delta(`${name}_count`));
      const meanMs = (name: string) => mean(name) * 1000;
      const commits = delta('channel_commit_seconds_count');
      const transactions = delta('channel_transaction_seconds_count');
      const roundTrips = delta('gateway_publish_seconds_count');
      return {
        ...(roundTrips > 0 && {
          ownerRoundTrips: { count: roundTrips, meanMs: meanMs('gateway_publish_seconds'), p99AtMostMs: p99AtMostMs('gateway_publish_seconds') },
        }),
        gc,
        loopDelayP99Ms: after.loopP99 * 1000,
        loopDelayMaxMs: after.loopMax * 1000,
        ...(commits > 0 && {
          commits: {
            count: commits,
            meanMessages: mean('channel_commit_batch_size'),
            meanMs: meanMs('channel_commit_seconds'),
            p99AtMostMs: p99AtMostMs('channel_commit_seconds'),
          },
        }),
        ...(transactions > 0 && {
          transactions: {
            count: transactions,
            meanCommands: mean('channel_transaction_commands'),
            meanMs: meanMs('channel_transaction_seconds'),
            p99AtMostMs: p99AtMostMs('channel_transaction_seconds'),
            laneWaitMeanMs: meanMs('channel_commit_lane_wait_seconds'),
            laneWaitP99AtMostMs: p99AtMostMs('channel_commit_lane_wait_seconds'),
          },
        }),
      };
    },
  };
}

/** One line for a report: `minor 120× 85 ms (each ≤ 10 ms), …; loop delay p99 12.1 ms, max 40.2 ms`. */
export function describePauses(pauses: Pauses): string {
  const gc = Object.entries(pauses.gc)
    .map(([kind, g]) => `${kind} ${g.count}× ${g.totalMs.toFixed(0)} ms (each ≤ ${g.longestAtMostMs} ms)`)
    .join(', ');
  const c = pauses.commits;
  const commits = c ? `; commits ${c.count}, mean ${c.meanMessages.toFixed(1)} messages, mean ${c.meanMs.toFixed(1)} ms, p99 ≤ ${c.p99AtMostMs} ms` : '';
  const t = pauses.transactions;
  const transactions = t
    ? `; of which the wait for a lane mean ${t.laneWaitMeanMs.toFixed(1)} ms, p99 ≤ ${t.laneWaitP99AtMostMs} ms; ` +
      `transactions ${t.count}, mean ${t.meanCommands.toFixed(1)} commands, mean ${t.meanMs.toFixed(1)} ms, p99 ≤ ${t.p99AtMostMs} ms`
    : '';
  const r = pauses.ownerRoundTrips;
  const roundTrips = r ? `; publishes to the owner and back ${r.count}, mean ${r.meanMs.toFixed(1)} ms, p99 ≤ ${r.p99AtMostMs} ms` : '';
  return `GC ${gc || 'none'}; loop delay p99 ${pauses.loopDelayP99Ms.toFixed(1)} ms, max ${pauses.loopDelayMaxMs.toFixed(1)} ms${roundTrips}${commits}${transactions}`;
}
