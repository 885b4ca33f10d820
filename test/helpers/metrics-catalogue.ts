/**
 * Reading metrics in tests: the catalogue itself is data (libs/ops/src/metrics-catalogue.ts,
 * `METRIC_ROWS` and `metricsOf` of @rtm/ops); these read Prometheus text and the docs table.
 */
import { readFileSync } from 'node:fs';

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

/** The label names each family's samples carry (a histogram's `_bucket`, `_sum`, `_count` count as its own). */
export function familyLabels(text: string): Map<string, Set<string>> {
  const families = metricFamilies(text);
  const labels = new Map<string, Set<string>>();
  for (const match of text.matchAll(/^(\w+)\{([^}]*)\} \S+$/gm)) {
    const family = families.has(match[1]!) ? match[1]! : match[1]!.replace(/_(bucket|sum|count)$/, '');
    const names = labels.get(family) ?? new Set<string>();
    for (const m of match[2]!.matchAll(/(\w+)="/g)) names.add(m[1]!);
    labels.set(family, names);
  }
  return labels;
}

/** prom-client's default process and Node.js metrics: exported by every process, listed as one group. */
export const isDefaultMetric = (name: string) => /^(process_|nodejs_)/.test(name);

/**
 * A row of the metrics table of docs/operations.md: the rows under "## Metrics" whose first cell
 * is a metric name in backquotes: | `name` | type | processes | labels | meaning |. The labels are
 * the backquoted names of the fourth cell outside parentheses (inside them: values and settings).
 */
export interface DocsRow {
  name: string;
  type: string;
  kinds: string[];
  labels: string[];
}

export function readDocsTable(path = new URL('../../docs/operations.md', import.meta.url)): DocsRow[] {
  const text = readFileSync(path, 'utf8');
  const start = text.indexOf('\n## Metrics');
  if (start < 0) throw new Error('docs/operations.md has no "## Metrics" section');
  const end = text.indexOf('\n## ', start + 1);
  const section = text.slice(start, end < 0 ? undefined : end);
  const rows: DocsRow[] = [];
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const name = /^`([a-z_:]+)`$/.exec(cells[1] ?? '')?.[1];
    if (!name) continue;
    const labels = [...(cells[4] ?? '').replace(/\([^)]*\)/g, '').matchAll(/`(\w+)`/g)].map((m) => m[1]!);
    rows.push({ name, type: cells[2]!, kinds: cells[3]!.split(',').map((k) => k.trim()), labels });
  }
  return rows;
}
