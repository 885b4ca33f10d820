/**
 * Checks of the monitoring files under deploy/observability/ (re-exported by deploy-checks.ts):
 * every metric an alert rule or a dashboard panel reads is one a process exports (the metrics
 * catalogue's, libs/ops/src/metrics-catalogue.ts, and prom-client's defaults).
 */
import { existsSync } from 'node:fs';
import YAML from 'yaml';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { ROOT } from './deploy-command.ts';

/** prom-client's default metrics, as every process registers them. */
export async function defaultMetrics(): Promise<Set<string>> {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return new Set((await registry.getMetricsAsJSON()).map((m) => m.name));
}

const PROMQL_WORDS = new Set(
  'sum min max avg count stddev stdvar topk bottomk quantile count_values group by without on ignoring group_left group_right bool and or unless offset rate irate increase delta idelta deriv histogram_quantile abs absent absent_over_time ceil floor round clamp clamp_min clamp_max label_replace label_join sort sort_desc time timestamp vector scalar sum_over_time avg_over_time max_over_time min_over_time count_over_time last_over_time changes resets predict_linear exp ln log2 log10 sqrt day_of_month day_of_week hour minute month year inf nan'.split(
    ' ',
  ),
);

/** The metric names a PromQL expression reads. */
export function promqlMetrics(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  return [...stripped.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)].map((m) => m[0]).filter((w) => !PROMQL_WORDS.has(w));
}

function unknownMetrics(where: string, exprs: string[], known: Set<string>): string[] {
  const problems: string[] = [];
  for (const expr of exprs) {
    for (const name of promqlMetrics(expr)) {
      const base = name.replace(/_(bucket|sum|count)$/, '');
      if (!known.has(name) && !known.has(base) && name !== 'up') problems.push(`${where}: ${name} is exported by no process (${expr})`);
    }
  }
  return problems;
}

export const REQUIRED_ALERTS: Record<string, RegExp> = {
  'dropped deliveries': /webhook_dropped_total/,
  'delivery backlog age': /webhook_backlog_oldest_seconds/,
  'unowned partitions': /channel_partitions_owned/,
  'publish p99': /histogram_quantile\(0\.99,.*gateway_publish_seconds_bucket/,
  '5xx rate': /http_request_duration_seconds_count\{status=~"5\.\."\}/,
};

export function checkAlertRules(text: string, known: Set<string>): string[] {
  const doc = YAML.parse(text) as { groups?: { name: string; rules: { alert?: string; expr?: string; for?: string }[] }[] };
  const problems: string[] = [];
  const rules = (doc?.groups ?? []).flatMap((g) => g.rules ?? []);
  if (rules.length === 0) problems.push('alerts.yaml: no rules');
  for (const rule of rules) {
    if (!rule.alert || typeof rule.expr !== 'string') problems.push(`alerts.yaml: a rule without alert or expr (${JSON.stringify(rule)})`);
    if (rule.for !== undefined && !/^\d+[smhd]$/.test(rule.for)) problems.push(`alerts.yaml ${rule.alert}: bad duration ${rule.for}`);
  }
  problems.push(
    ...unknownMetrics(
      'alerts.yaml',
      rules.map((r) => r.expr ?? ''),
      known,
    ),
  );
  for (const [what, pattern] of Object.entries(REQUIRED_ALERTS))
    if (!rules.some((r) => pattern.test(r.expr ?? ''))) problems.push(`alerts.yaml: no alert on ${what}`);
  return problems;
}

export function checkPrometheusConfig(text: string): string[] {
  const doc = YAML.parse(text) as any;
  const problems: string[] = [];
  for (const file of doc?.rule_files ?? []) if (!existsSync(`${ROOT}deploy/observability/${file}`)) problems.push(`prometheus.yaml: rule file ${file} missing`);
  if (!(doc?.rule_files ?? []).length) problems.push('prometheus.yaml: loads no rules');
  const jobs = doc?.scrape_configs ?? [];
  if (jobs.length === 0) problems.push('prometheus.yaml: no scrape jobs');
  for (const job of jobs) if (job.metrics_path !== '/internal/metrics') problems.push(`prometheus.yaml ${job.job_name}: metrics_path is not /internal/metrics`);
  return problems;
}

export function checkGrafanaDashboard(text: string, known: Set<string>): string[] {
  let doc: any;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    return [`grafana-dashboard.json: ${(error as Error).message}`];
  }
  const problems: string[] = [];
  if (!doc.title || !doc.uid || !Array.isArray(doc.panels)) problems.push('grafana-dashboard.json: not a dashboard (title, uid, panels)');
  const exprs = (doc.panels ?? []).flatMap((p: any) => (p.targets ?? []).map((t: any) => t.expr)).filter(Boolean) as string[];
  if (exprs.length === 0) problems.push('grafana-dashboard.json: no queries');
  problems.push(...unknownMetrics('grafana-dashboard.json', exprs, known));
  return problems;
}
