/**
 * A usage chart: uPlot (bundled into app.js, nothing loaded from elsewhere) drawing a few
 * counters over UTC intervals, with a table of the same numbers for screen readers and for
 * anyone who wants the figures rather than the picture.
 */
import uPlot from 'uplot';
import { h } from './dom.ts';
import { seriesOf, type StatsEntry, type StatsUnit } from './usage-series.ts';

export interface ChartSeries {
  counter: string;
  label: string;
  color: string;
  /** A peak: its total over the range is the largest interval, not the sum. */
  peak?: boolean;
  /** An average: its total over the range is the mean of the intervals. */
  average?: boolean;
}

export interface ChartSpec {
  series: ChartSeries[];
}

export interface DrawnChart {
  /** Resizes the chart to its container's width. */
  fit(): void;
  destroy(): void;
}

const HEIGHT = 220;

const utc = (seconds: number) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC');

const label = (unit: StatsUnit, seconds: number) => {
  const iso = new Date(seconds * 1000).toISOString();
  return unit === 'month' ? iso.slice(0, 7) : unit === 'day' ? iso.slice(0, 10) : `${iso.slice(0, 16).replace('T', ' ')} UTC`;
};

/** The intervals that had use, newest first, as a table (the chart's text alternative). */
function numbers(spec: ChartSpec, entries: readonly StatsEntry[], unit: StatsUnit): HTMLElement {
  const rows = [...entries]
    .sort((a, b) => Date.parse(b.start) - Date.parse(a.start))
    .filter((entry) => spec.series.some((series) => entry[series.counter] !== 0));
  return h(
    'details',
    {},
    h('summary', {}, `The numbers (${rows.length} ${rows.length === 1 ? 'interval' : 'intervals'} with use)`),
    rows.length === 0
      ? h('p', { class: 'muted' }, 'Nothing was counted in this range.')
      : h(
          'div',
          { class: 'table-wrap' },
          h(
            'table',
            {},
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                h('th', { scope: 'col' }, `Interval (${unit})`),
                spec.series.map((series) => h('th', { scope: 'col' }, series.label)),
              ),
            ),
            h(
              'tbody',
              {},
              rows.map((entry) =>
                h(
                  'tr',
                  {},
                  h('td', {}, label(unit, Date.parse(entry.start) / 1000)),
                  spec.series.map((series) => h('td', { 'data-counter': series.counter }, String(entry[series.counter] ?? 0))),
                ),
              ),
            ),
          ),
        ),
  );
}

/** Draws `spec` for `starts` (every interval of the range) into `container`, replacing what it held. */
export function drawChart(container: HTMLElement, spec: ChartSpec, entries: readonly StatsEntry[], starts: readonly number[], unit: StatsUnit): DrawnChart {
  container.replaceChildren();
  const plot = h('div', { class: 'plot', role: 'img', 'aria-label': `${spec.series.map((s) => s.label).join(', ')} by ${unit}; the numbers follow` });
  container.append(plot, numbers(spec, entries, unit));
  const width = () => Math.max(280, container.clientWidth || 640);
  const chart = new uPlot(
    {
      width: width(),
      height: HEIGHT,
      tzDate: utc,
      scales: { x: { time: true }, y: { range: (_u, min, max) => [0, Math.max(1, max, min)] } },
      axes: [{}, { size: 60 }],
      series: [
        { label: 'UTC', value: (_u, seconds) => (seconds == null ? '—' : label(unit, seconds)) },
        ...spec.series.map((series) => ({ label: series.label, stroke: series.color, width: 2, points: { show: starts.length <= 60 } })),
      ],
      legend: { live: true },
    },
    seriesOf(
      entries,
      starts,
      spec.series.map((series) => series.counter),
    ),
    plot,
  );
  return {
    fit: () => chart.setSize({ width: width(), height: HEIGHT }),
    destroy: () => chart.destroy(),
  };
}
