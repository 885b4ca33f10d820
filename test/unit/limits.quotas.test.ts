import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChannelCommand } from '@rtm/schemas';
import { cleanOverrides } from '@rtm/limits';
import { cleanQuotas, effectiveQuotas, quotaPeriod, quotaReasonText, thresholdsReached } from '@rtm/rules';
import { quotaRefusal } from '../../libs/client/src/errors.ts';
import { channelKey, planBatch, type ChannelState } from '../../apps/channel-node/src/batch-plan.ts';
import { connectionQuotaReason } from '../../libs/edge/src/limits/connection-quota.ts';
import { serverPublish } from '../helpers/commands.ts';

test('quotas - the month is the UTC calendar month; it resets at the next one', () => {
  assert.deepEqual(quotaPeriod(Date.parse('2026-01-31T23:59:59.999Z')), {
    start: new Date('2026-01-01T00:00:00Z'),
    resetsAt: new Date('2026-02-01T00:00:00Z'),
  });
  assert.deepEqual(quotaPeriod(Date.parse('2026-02-01T00:00:00Z')).start, new Date('2026-02-01T00:00:00Z'));
  assert.deepEqual(quotaPeriod(Date.parse('2026-12-15T12:00:00+05:00')).resetsAt, new Date('2027-01-01T00:00:00Z'), 'December to January');
});

test('quotas - the thresholds reached: 80 % and 100 %, rounded up to a whole count', () => {
  assert.deepEqual(thresholdsReached(7, 10), []);
  assert.deepEqual(thresholdsReached(8, 10), [80]);
  assert.deepEqual(thresholdsReached(10, 10), [80, 100]);
  assert.deepEqual(thresholdsReached(12, 10), [80, 100]);
  assert.deepEqual(thresholdsReached(2, 3), [], '80 % of 3 is 2.4');
  assert.deepEqual(thresholdsReached(3, 3), [80, 100]);
  assert.deepEqual(thresholdsReached(1_000_000, null), [], 'unlimited');
});

test('quotas - as stored: whole numbers from 0 kept, null and the rest unlimited, beside the rate limits', () => {
  assert.deepEqual(cleanQuotas({ monthlyMessages: 0, monthlyConnectionMinutes: null }), { monthlyMessages: 0 });
  assert.deepEqual(cleanQuotas({ monthlyMessages: 1.5, monthlyConnectionMinutes: -1 }), {});
  assert.deepEqual(effectiveQuotas(undefined), { monthlyMessages: null, monthlyConnectionMinutes: null });
  assert.deepEqual(cleanOverrides({ socketsPerUser: 7, monthlyMessages: 100, socketsPerEnvironment: 0 }), { socketsPerUser: 7, monthlyMessages: 100 });
});

test('quotas - a plan with an allowance stores up to it and refuses the rest with quota_exceeded, no seq taken', () => {
  const room = channelKey('env_q', 'room');
  const states = new Map<string, ChannelState>([
    [room, { pk: 1, lastSeq: 5 }],
    [channelKey('env_free', 'room'), { pk: 2, lastSeq: 0 }],
  ]);
  const commands: ChannelCommand[] = [
    serverPublish('env_q', 'room', 1),
    serverPublish('env_free', 'room', 2),
    serverPublish('env_q', 'room', 3),
    serverPublish('env_q', 'room', 4),
    { ...serverPublish('env_q', 'room', 5), ephemeral: true },
  ];
  const allowance = new Map([['env_q', { left: 2, limit: 10, used: 8, resetsAt: '2026-02-01T00:00:00.000Z' }]]);
  let ids = 0;
  const plan = planBatch(commands, states, new Map(), 1, (prefix) => `${prefix}_${++ids}`, new Set(), allowance);
  assert.deepEqual(
    plan.messages.map((m) => [m.channel_pk, m.seq]),
    [
      [1, 6],
      [2, 1],
      [1, 7],
    ],
  );
  const refused = plan.outcome.replies[3]!;
  const quota = { quota: 'monthlyMessages', limit: 10, used: 10, resetsAt: '2026-02-01T00:00:00.000Z' } as const;
  assert.deepEqual(refused, { ok: false, code: 'quota_exceeded', reason: quotaReasonText(quota), quota });
  assert.equal(plan.outcome.replies[4]!.ok, true, 'an ephemeral message is not counted');
  assert.deepEqual(
    [...plan.counted],
    [
      ['env_q', 2],
      ['env_free', 1],
    ],
    'what the commit adds to each month',
  );
  assert.equal(plan.allowance.get('env_q')!.left, 0, 'what is left for the edits');
  assert.equal(allowance.get('env_q')!.left, 2, 'the input is not modified');
  assert.match(quotaReasonText(quota), /monthlyMessages.*10 of 10 messages.*2026-02-01T00:00:00\.000Z/);
});

test('quotas - the SDK reads a connection refused for a spent quota, and only that 4429', () => {
  const reason = connectionQuotaReason(60, 60, '2026-02-01T00:00:00.000Z');
  assert.ok(Buffer.byteLength(reason) <= 123, 'fits a close frame');
  const error = quotaRefusal(4429, reason)!;
  assert.equal(error.code, 'quota_exceeded');
  assert.equal(error.resetsAt, '2026-02-01T00:00:00.000Z');
  assert.equal(error.reason, reason);
  // an event stream's refusal carries the envelope's code and reason
  assert.equal(quotaRefusal(4429, `quota_exceeded: ${reason} (GET /v1/events answered 429)`)?.resetsAt, '2026-02-01T00:00:00.000Z');
  assert.equal(quotaRefusal(4429, 'rate limited: sockets opened per second by this user'), undefined);
  assert.equal(quotaRefusal(4403, reason), undefined);
});
