import { readFileSync } from 'node:fs';

export type Kind = 'gateway' | 'channel-node' | 'dispatcher';

/** Metric families in Prometheus text (`# TYPE name type` lines): name → type. */
export function metricFamilies(text: string): Map<string, string> {
  const families = new Map<string, string>();
  for (const match of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) families.set(match[1]!, match[2]!);
  return families;
}

/** The value of one sample (`name{labels} value`), summed over every sample whose labels include `labels`. */
export function sampleValue(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  let found: number | undefined;
  for (const match of text.matchAll(/^(\w+)(?:\{([^}]*)\})? (\S+)$/gm)) {
    if (match[1] !== name) continue;
    const have = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (!Object.entries(labels).every(([k, v]) => have[k] === v)) continue;
    found = (found ?? 0) + Number(match[3]);
  }
  return found;
}

/** prom-client's default process and Node.js metrics: exported by every process, listed as one group. */
export const isDefaultMetric = (name: string) => /^(process_|nodejs_)/.test(name);

export interface CatalogueRow {
  name: string;
  type: string;
  kinds: Kind[];
}

/**
 * The metrics catalogue of docs/operations.md: the rows of the table under "## Metrics" whose
 * first cell is a metric name in backquotes: | `name` | type | processes | labels | meaning |
 */
export function readCatalogue(path = new URL('../../docs/operations.md', import.meta.url)): CatalogueRow[] {
  const text = readFileSync(path, 'utf8');
  const start = text.indexOf('\n## Metrics');
  if (start < 0) throw new Error('docs/operations.md has no "## Metrics" section');
  const end = text.indexOf('\n## ', start + 1);
  const section = text.slice(start, end < 0 ? undefined : end);
  const rows: CatalogueRow[] = [];
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const name = /^`([a-z_:]+)`$/.exec(cells[1] ?? '')?.[1];
    if (!name) continue;
    rows.push({ name, type: cells[2]!, kinds: cells[3]!.split(',').map((k) => k.trim() as Kind) });
  }
  return rows;
}
