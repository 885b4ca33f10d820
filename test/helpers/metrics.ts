import { eventually } from './eventually.ts';

/**
 * The sum, over the lines of a process's Prometheus text (`/internal/metrics`) that match
 * `pattern`, of the number its first group captures: one sample, or every label set of a family.
 */
export async function metricTotal(internalUrl: string, pattern: RegExp): Promise<number> {
  const text = await (await fetch(`${internalUrl}/internal/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n')) {
    const match = pattern.exec(line);
    if (match) total += Number(match[1]);
  }
  return total;
}

const PARTITIONS_OWNED = /^webhook_partitions_owned(?:\{[^}]*\})? (\d+)/;

/** The webhook partitions (of 16) a dispatcher owns, from its metrics. */
export const partitionsOwned = (internalUrl: string): Promise<number> => metricTotal(internalUrl, PARTITIONS_OWNED);

/** Waits until each dispatcher owns a share of the 16 webhook partitions, and together all of them. */
export async function partitionsShared(dispatchers: readonly { internalUrl: string }[]): Promise<void> {
  await eventually(
    async () => {
      const owned = await Promise.all(dispatchers.map((d) => partitionsOwned(d.internalUrl)));
      return owned.every((n) => n > 0) && owned.reduce((a, b) => a + b, 0) === 16;
    },
    { timeoutMs: 30_000, what: 'the webhook partitions shared by the dispatchers' },
  );
}
