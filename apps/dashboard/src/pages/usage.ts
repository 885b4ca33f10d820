import { api, type Quota, type QuotaItem } from '../api.ts';
import { h, replace, selectField } from '../dom.ts';
import type { PageContext } from '../router.ts';
import { card, errorRegion, messageOf } from '../ui.ts';
import { environmentHeader } from './environment-nav.ts';
import { drawChart, type ChartSpec, type DrawnChart } from '../usage-chart.ts';
import { STATS_UNITS, USAGE_RANGES, statsQuery, total, type StatsEntry, type StatsUnit, type UsageRange } from '../usage-series.ts';

/** How often the page asks again while it is open (a minute is flushed within seconds). */
const REFRESH_MS = 30_000;

const CHARTS: (ChartSpec & { id: string; title: string })[] = [
  {
    id: 'usage-messages',
    title: 'Messages',
    series: [
      { counter: 'messagesPublished', label: 'Published', color: '#1f5fbf' },
      { counter: 'messagesDelivered', label: 'Delivered to subscribers', color: '#1e7a3c' },
    ],
  },
  {
    id: 'usage-connections',
    title: 'Connections',
    series: [
      { counter: 'connectionsPeak', label: 'Peak concurrent', color: '#7b3fb8', peak: true },
      { counter: 'connectionsAverage', label: 'Average concurrent', color: '#c26a00', average: true },
    ],
  },
  {
    id: 'usage-webhooks',
    title: 'Webhook deliveries and failures',
    series: [
      { counter: 'webhookDeliveries', label: 'Delivered', color: '#1e7a3c' },
      { counter: 'webhookFailedAttempts', label: 'Failed attempts', color: '#b3261e' },
      { counter: 'webhookDropped', label: 'Dropped', color: '#5a6370' },
    ],
  },
];

const number = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 2 });

/** The longest range that `unit` can show in one request (a minute cannot show a month). */
function fits(unit: StatsUnit, range: UsageRange, now: number): boolean {
  return !('error' in statsQuery(unit, range, now));
}

function quotaRow(name: string, item: QuotaItem, resetsAt: string): HTMLElement {
  const share = item.limit === null || item.limit === 0 ? null : item.used / item.limit;
  const text =
    item.limit === null ? `${number(item.used)} used, no limit` : `${number(item.used)} of ${number(item.limit)} (${Math.floor((share ?? 1) * 100)} %)`;
  const row = h(
    'div',
    { class: 'quota', 'data-testid': `quota-${name === 'Messages' ? 'messages' : 'connection-minutes'}` },
    h('span', { class: 'quota-name' }, name),
    item.limit === null
      ? null
      : h('meter', {
          min: 0,
          max: item.limit,
          value: Math.min(item.used, item.limit),
          low: item.limit * 0.8,
          high: item.limit * 0.99,
          optimum: 0,
          'aria-label': `${name} used this month`,
        }),
    h('span', { class: 'quota-text' }, text),
  );
  if (item.limit !== null && item.used >= item.limit) {
    row.append(
      h(
        'p',
        { class: 'error', role: 'alert' },
        `The monthly ${name.toLowerCase()} quota is used up: it is refused with quota_exceeded until ${new Date(resetsAt).toLocaleString()}.`,
      ),
    );
  } else if (share !== null && share >= 0.8) {
    row.append(h('p', { class: 'warn' }, `Over 80 % of the monthly ${name.toLowerCase()} quota is used.`));
  }
  return row;
}

function quotaPanel(quota: Quota): Node[] {
  return [
    h(
      'p',
      { class: 'muted' },
      `This month (UTC) since ${new Date(quota.period.start).toLocaleDateString()}; resets at ${new Date(quota.period.resetsAt).toLocaleString()}.`,
    ),
    quotaRow('Messages', quota.quotas.messages, quota.period.resetsAt),
    quotaRow('Connection-minutes', quota.quotas.connectionMinutes, quota.period.resetsAt),
  ];
}

/** The totals under a chart: sums, except a peak (the largest) and an average (over the range). */
function totals(spec: ChartSpec, entries: StatsEntry[], intervals: number): HTMLElement {
  return h(
    'dl',
    { class: 'facts totals' },
    spec.series.flatMap((series) => {
      const values = entries.map((entry) => (typeof entry[series.counter] === 'number' ? (entry[series.counter] as number) : 0));
      const value = series.peak
        ? Math.max(0, ...values)
        : series.average
          ? total(entries, series.counter) / Math.max(1, intervals)
          : total(entries, series.counter);
      return [
        h('dt', {}, series.peak ? `${series.label} (largest)` : series.average ? `${series.label} (over the range)` : `${series.label} (total)`),
        h('dd', { 'data-counter': series.counter }, number(value)),
      ];
    }),
  );
}

/**
 * /dashboard/environments/:envId/usage: the environment's usage by minute, hour, day or month
 * over a chosen range (UTC intervals, drawn from `GET …/stats`), and this month's use against its
 * monthly quotas. Asks again every 30 seconds while open.
 */
export async function usagePage({ params, onLeave }: PageContext): Promise<Node[]> {
  const env = await api.environment(params.envId!);
  const search = new URLSearchParams(location.search);
  let unit: StatsUnit = STATS_UNITS.includes(search.get('unit') as StatsUnit) ? (search.get('unit') as StatsUnit) : 'minute';
  let range: UsageRange = USAGE_RANGES.find((r) => r.id === search.get('range')) ?? USAGE_RANGES[0]!;

  const unitField = selectField('Unit', 'unit', STATS_UNITS, unit);
  const rangeSelect = h(
    'select',
    { id: 'usage-range', name: 'range' },
    USAGE_RANGES.map((r) => h('option', { value: r.id, selected: r.id === range.id }, r.label)),
  );
  const rangeField = h('label', { for: 'usage-range' }, h('span', { class: 'label-text' }, 'Range'), rangeSelect);
  const refreshButton = h('button', { type: 'button', class: 'secondary' }, 'Refresh');
  const updated = h('p', { class: 'muted', 'aria-live': 'polite', 'data-testid': 'usage-updated' });
  const chartErrors = errorRegion();
  const quotaErrors = errorRegion();
  const quotaBody = h('div', { 'data-testid': 'quota-panel' });
  const cards = CHARTS.map((spec) => ({
    spec,
    body: h('div', { class: 'chart', id: `${spec.id}-chart` }),
    totals: h('div', {}),
    drawn: undefined as DrawnChart | undefined,
  }));

  const markRanges = () => {
    const now = Date.now();
    for (const option of rangeSelect.options) option.disabled = !fits(unit, USAGE_RANGES.find((r) => r.id === option.value)!, now);
    if (!fits(unit, range, now)) range = [...USAGE_RANGES].reverse().find((r) => fits(unit, r, now)) ?? USAGE_RANGES[0]!;
    rangeSelect.value = range.id;
  };

  let generation = 0;
  const load = async () => {
    const mine = ++generation;
    replace(chartErrors);
    replace(quotaErrors);
    const now = Date.now();
    const query = statsQuery(unit, range, now);
    const [stats, quota] = await Promise.allSettled([
      'error' in query
        ? Promise.reject(new Error(query.error))
        : api.stats(env.id, { unit: query.unit, start: query.start, end: query.end, limit: query.limit, direction: query.direction }),
      api.quota(env.id),
    ]);
    if (mine !== generation) return;
    if (quota.status === 'fulfilled') replace(quotaBody, quotaPanel(quota.value));
    else replace(quotaErrors, messageOf(quota.reason));
    if (stats.status === 'rejected' || 'error' in query) {
      replace(chartErrors, stats.status === 'rejected' ? messageOf(stats.reason) : '');
      return;
    }
    const starts = query.starts;
    for (const chart of cards) {
      chart.drawn?.destroy();
      chart.drawn = drawChart(chart.body, chart.spec, stats.value.data, starts, unit);
      replace(chart.totals, totals(chart.spec, stats.value.data, starts.length));
    }
    replace(updated, `Updated ${new Date(now).toLocaleTimeString()}: ${stats.value.data.length} of ${starts.length} intervals had use.`);
  };

  const choose = () => {
    history.replaceState(null, '', `${location.pathname}?unit=${unit}&range=${range.id}`);
    void load();
  };
  unitField.querySelector('select')!.addEventListener('change', (event) => {
    unit = (event.target as HTMLSelectElement).value as StatsUnit;
    markRanges();
    choose();
  });
  rangeSelect.addEventListener('change', () => {
    range = USAGE_RANGES.find((r) => r.id === rangeSelect.value) ?? range;
    choose();
  });
  refreshButton.addEventListener('click', () => void load());

  markRanges();
  await load();
  const timer = setInterval(() => void load(), REFRESH_MS);
  const resize = () => {
    for (const chart of cards) chart.drawn?.fit();
  };
  window.addEventListener('resize', resize);
  onLeave(() => {
    clearInterval(timer);
    window.removeEventListener('resize', resize);
    for (const chart of cards) chart.drawn?.destroy();
  });

  return [
    ...environmentHeader(env, '/usage', 'Usage'),
    card('quota-heading', 'Monthly quotas', quotaBody, quotaErrors),
    h('div', { class: 'toolbar', role: 'group', 'aria-label': 'What to show' }, unitField, rangeField, refreshButton),
    updated,
    chartErrors,
    ...cards.map((chart) => card(`${chart.spec.id}-heading`, chart.spec.title, chart.body, chart.totals)),
  ];
}
