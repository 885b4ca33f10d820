import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode, NatsError } from 'nats';
import type { CommandReply } from '@rtm/schemas';
import { startAsk, type AskOptions } from '../../libs/owner-client/src/ask-owner.ts';
import { ConnectionLostError } from '../../libs/owner-client/src/owner-batcher.ts';

/** One send of a command, as a promise (the fake owner below). */
type SendOnce = (subject: string, command: Uint8Array, deadline: number) => Promise<CommandReply>;

/** The round trip as a promise, over a promise-returning send. */
function askOwner(send: SendOnce, subject: string, command: Uint8Array, deadline: number, options: AskOptions): Promise<CommandReply> {
  return new Promise((resolve, reject) =>
    startAsk(
      (encoded, until, waiter) =>
        void send(subject, encoded, until).then(
          (reply) => waiter.settle(reply),
          (error: unknown) => waiter.fail(error),
        ),
      command,
      deadline,
      options,
      { answered: resolve, failed: reject },
    ),
  );
}

/** Any encoded command: the round trip's rules do not look inside it. */
const COMMAND = new Uint8Array([1, 0, 1]);

const REPLY = (n: number): CommandReply => ({ ok: true, result: { id: `msg_${n}`, seq: n, timestamp: n } }) as CommandReply;
const noResponders = () => new NatsError('503', ErrorCode.NoResponders);
const timeout = () => new NatsError('TIMEOUT', ErrorCode.Timeout);

/**
 * A fake owner round trip: the n-th send (from 0) does what `script(n)` says: answer with
 * REPLY(n) after `ms`, reject at once, or never answer (rejects with a time-out at the deadline,
 * as the requester does).
 */
function fakeSend(script: (n: number) => { answerAfter: number } | { reject: () => unknown } | 'lost') {
  const sentAt: number[] = [];
  const started = Date.now();
  const send: SendOnce = (_subject, _json, deadline) => {
    const n = sentAt.length;
    sentAt.push(Date.now() - started);
    const step = script(n);
    if (step === 'lost') return new Promise((_, reject) => setTimeout(() => reject(timeout()), Math.max(0, deadline - Date.now())));
    if ('reject' in step) return Promise.reject(step.reject());
    return new Promise((resolve) => setTimeout(() => resolve(REPLY(n)), step.answerAfter));
  };
  return { send, sentAt };
}

const RESEND = [40, 80];

// each test waits on real timers (back-offs, repeats, deadlines) with its own fakes: side by side
describe('askOwner', { concurrency: true }, () => {
  test('askOwner: a command that is not repeatable is sent once and waits out the deadline when its answer is lost', async () => {
    const { send, sentAt } = fakeSend(() => 'lost');
    const started = Date.now();
    await assert.rejects(askOwner(send, 's', COMMAND, Date.now() + 250, { repeatable: false, resendAfterMs: RESEND }), (error: any) => {
      assert.equal(error.code, 'unavailable');
      assert.match(error.reason, /did not answer in time; the outcome is unknown/);
      return true;
    });
    assert.equal(sentAt.length, 1, 'never sent twice: a repeat could write it twice');
    assert.ok(Date.now() - started >= 240);
  });

  test('askOwner: a repeatable command whose first send was lost is sent again and answered by the repeat', async () => {
    const { send, sentAt } = fakeSend((n) => (n === 0 ? 'lost' : { answerAfter: 5 }));
    const reply = await askOwner(send, 's', COMMAND, Date.now() + 2_000, { repeatable: true, resendAfterMs: RESEND });
    assert.deepEqual(reply, REPLY(1));
    assert.equal(sentAt.length, 2);
    assert.ok(sentAt[1]! >= 35, `the repeat waited for the first answer (${sentAt[1]} ms)`);
  });

  test('askOwner: the first answer wins, whichever send it is for; a slow first send is not given up on', async () => {
    // the first send answers after the repeat left, and before the repeat answers
    const { send, sentAt } = fakeSend((n) => (n === 0 ? { answerAfter: 60 } : { answerAfter: 200 }));
    const reply = await askOwner(send, 's', COMMAND, Date.now() + 2_000, { repeatable: true, resendAfterMs: RESEND });
    assert.deepEqual(reply, REPLY(0));
    assert.equal(sentAt.length, 2);
  });

  test('askOwner: repeats are spaced by the schedule and stop at the deadline, which answers 503 outcome unknown', async () => {
    const { send, sentAt } = fakeSend(() => 'lost');
    await assert.rejects(askOwner(send, 's', COMMAND, Date.now() + 300, { repeatable: true, resendAfterMs: RESEND }), (error: any) => {
      assert.equal(error.code, 'unavailable');
      assert.match(error.reason, /outcome is unknown/);
      return true;
    });
    // at 0, 40, then every 80: 0, 40, 120, 200, 280
    assert.ok(sentAt.length >= 4 && sentAt.length <= 5, `sent at ${sentAt.join(', ')} ms`);
    for (let i = 2; i < sentAt.length; i++) assert.ok(sentAt[i]! - sentAt[i - 1]! >= 75, `sent at ${sentAt.join(', ')} ms`);
  });

  test('askOwner: NoResponders is retried after a back-off until an owner answers, repeatable or not', async () => {
    for (const repeatable of [false, true]) {
      const { send, sentAt } = fakeSend((n) => (n < 3 ? { reject: noResponders } : { answerAfter: 1 }));
      const reply = await askOwner(send, 's', COMMAND, Date.now() + 2_000, { repeatable, resendAfterMs: RESEND });
      assert.deepEqual(reply, REPLY(3));
      assert.equal(sentAt.length, 4);
      assert.ok(sentAt[3]! >= 20 + 50 + 100 - 5, `backed off: ${sentAt.join(', ')} ms`);
    }
  });

  test('askOwner: no owner until the deadline answers 503 "no channel owner"', async () => {
    const { send } = fakeSend(() => ({ reject: noResponders }));
    await assert.rejects(askOwner(send, 's', COMMAND, Date.now() + 200, { repeatable: true, resendAfterMs: RESEND }), (error: any) => {
      assert.equal(error.code, 'unavailable');
      assert.match(error.reason, /no channel owner is available/);
      return true;
    });
  });

  test('askOwner: NoResponders on a repeat does not end the wait for an earlier send still in flight', async () => {
    const { send, sentAt } = fakeSend((n) => (n === 0 ? { answerAfter: 100 } : { reject: noResponders }));
    const reply = await askOwner(send, 's', COMMAND, Date.now() + 2_000, { repeatable: true, resendAfterMs: RESEND });
    assert.deepEqual(reply, REPLY(0));
    assert.equal(sentAt.length, 2, `the refused repeat was not retried while the first was out: ${sentAt.join(', ')}`);
  });

  test('askOwner: a lost connection answers 503 at once, repeatable or not', async () => {
    for (const repeatable of [false, true]) {
      const lost = fakeSend(() => ({ reject: () => new ConnectionLostError('lost') }));
      const started = Date.now();
      await assert.rejects(askOwner(lost.send, 's', COMMAND, Date.now() + 2_000, { repeatable, resendAfterMs: RESEND }), (error: any) => {
        assert.match(error.reason, /connection to the message bus was lost/);
        return true;
      });
      assert.ok(Date.now() - started < 1_000);
      assert.equal(lost.sentAt.length, 1);
    }
  });
});
