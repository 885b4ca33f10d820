/**
 * The metrics catalogue (libs/ops/src/metrics-catalogue.ts) is what the processes register from;
 * docs/operations.md's table must say the same: each metric's type, processes and own labels.
 * (ops.metrics.test.ts compares what the running processes export with the same data.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry, Counter, Histogram } from 'prom-client';
import { METRIC_ROWS, counterSpec, histogramSpec, metricsOf } from '../../libs/ops/src/index.ts';
import { readDocsTable } from '../helpers/metrics-catalogue.ts';

const describe = (row: { name: string; type: string; kinds: readonly string[]; labels: readonly string[] }) =>
  `${row.name} ${row.type} on ${[...row.kinds].sort().join(',')} labelled ${[...row.labels].sort().join(',') || '-'}`;

test('metrics catalogue: the table of docs/operations.md lists each entry with its type, processes and labels', () => {
  const docs = readDocsTable();
  assert.deepEqual(docs.map(describe).sort(), METRIC_ROWS.map((row) => describe({ ...row, kinds: row.processes })).sort());
  assert.equal(new Set(docs.map((row) => row.name)).size, docs.length, 'a metric listed twice in the docs');
});

test('metrics catalogue: names follow Prometheus conventions, every entry is explained and belongs to a process', () => {
  for (const row of METRIC_ROWS) {
    assert.match(row.name, /^[a-z][a-z0-9_]*$/, row.name);
    assert.equal(row.type === 'counter', row.name.endsWith('_total'), `${row.name}: counters, and only they, end in _total`);
    assert.ok(row.help.length > 10, `${row.name}: help`);
    assert.ok(row.processes.length > 0, `${row.name}: no process`);
  }
  assert.ok(metricsOf('gateway').some((row) => row.name === 'http_request_duration_seconds'));
  assert.ok(!metricsOf('dispatcher').some((row) => row.name === 'http_request_duration_seconds'));
});

test('metrics catalogue: a metric registered from its entry exports the entry name, help and labels', async () => {
  const registry = new Registry();
  new Counter({ ...counterSpec('webhook_attempts_total'), registers: [registry] }).inc({ result: 'delivered' });
  new Histogram({ ...histogramSpec('gateway_publish_seconds'), buckets: [1], registers: [registry] }).observe({ sender: 'server', outcome: 'ok' }, 0.5);
  const text = await registry.metrics();
  const attempts = METRIC_ROWS.find((row) => row.name === 'webhook_attempts_total')!;
  assert.match(text, new RegExp(`^# HELP webhook_attempts_total ${attempts.help.replace(/[()]/g, '\\$&')}$`, 'm'));
  assert.match(text, /^webhook_attempts_total\{result="delivered"\} 1$/m);
  assert.match(text, /^gateway_publish_seconds_count\{sender="server",outcome="ok"\} 1$/m);
});
