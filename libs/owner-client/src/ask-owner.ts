/**
 * One command's round trip to its partition owner, given the function that sends it once
 * (OwnerBatcher.submit). Guarantees:
 * - NoResponders (nobody owns the partition right now: a node died or is rebalancing) means the
 *   command was not delivered: it is sent again after a short back-off, or as soon as a node
 *   announces the partition (`ownerAnnounced`, owner-batcher.ts), until the deadline;
 * - a time-out means the command may have been processed: the caller gets 503 `unavailable`,
 *   outcome unknown (it may retry with an idempotencyKey);
 * - the sender's bus connection lost with the command in flight ends the wait at once with 503
 *   `unavailable`, outcome unknown, for every command: the reply would have come back through
 *   that connection, and the caller learns at once rather than when an owner may answer;
 * - the channel-node holding the command gone before answering (OwnerLostError: its bus
 *   connection closed, node-departures.ts) ends that send at once: a REPEATABLE command is sent
 *   again (to the partition's next owner, through the NoResponders back-off until there is one),
 *   any other is answered 503 `unavailable`, outcome unknown (the node may have committed it);
 * - nothing waits past the deadline.
 *
 * A REPEATABLE command (a persisted publish with an idempotencyKey: the owner answers a repeat
 * with the first result and writes nothing) is also sent again when it had no answer after
 * RESEND_AFTER_MS, while the earlier sends stay in flight; the first answer wins. Why: a bus
 * server that dies takes with it the requests and replies passing through it, and nothing
 * tells the gateway. Without the repeat such a command waits out the whole deadline
 * (OWNER_TIMEOUT_MS, 5 s by default); with it, about a second. The owner's mailbox is first in,
 * first out, so a repeat that reaches an owner still holding the first send is answered after
 * it, with its result. Both SDKs give every persisted publish a key.
 */
import { ServiceError } from '@rtm/errors';
import { isNoResponders, isTimeout } from '@rtm/bus';
import type { CommandReply } from '@rtm/schemas';
import { ConnectionLostError, NotSentError, type ReplyWaiter } from './owner-batcher.ts';
import { OwnerLostError } from './node-departures.ts';

/** Back-off after NoResponders, by attempt. */
const BACKOFF_MS = [20, 50, 100, 200, 250];

/** A repeatable command without an answer is sent again after 1 s, then every 2 s. */
export const RESEND_AFTER_MS = [1_000, 2_000];

export interface AskOptions {
  /** Whether sending the command twice is safe (see the header). */
  repeatable: boolean;
  /** Overrides RESEND_AFTER_MS (tests). */
  resendAfterMs?: readonly number[];
}

/** Sends one command once; `waiter` is told its reply or why it failed (OwnerBatcher.submit). */
export type Submit = (command: Uint8Array, deadline: number, waiter: ReplyWaiter) => void;

/** Told the round trip's end exactly once: the first reply, or the 503 ServiceError. */
export interface AskDone {
  answered(reply: CommandReply): void;
  failed(error: ServiceError): void;
}

const noOwner = () => new ServiceError('unavailable', 'no channel owner is available; retry');

/** What a failed send means for the caller (NoResponders is handled before this). */
function unavailable(error: unknown): ServiceError {
  if (error instanceof NotSentError) return noOwner();
  if (error instanceof ConnectionLostError) {
    return new ServiceError(
      'unavailable',
      'the connection to the message bus was lost with the command in flight; the outcome is unknown (retry with an idempotencyKey)',
    );
  }
  if (error instanceof OwnerLostError) {
    return new ServiceError('unavailable', 'the channel owner stopped with the command in flight; the outcome is unknown (retry with an idempotencyKey)');
  }
  if (isTimeout(error)) {
    return new ServiceError('unavailable', 'the channel owner did not answer in time; the outcome is unknown (retry with an idempotencyKey)');
  }
  return new ServiceError('unavailable', 'the message bus is not reachable; retry', { cause: error });
}

/**
 * The first reply to `command` (encoded: libs/schemas command-codec.ts) before `deadline` (epoch
 * ms), told to `done`; else a 503 ServiceError. `submit` sends it once (OwnerBatcher.submit).
 */
export function startAsk(submit: Submit, command: Uint8Array, deadline: number, options: AskOptions, done: AskDone): void {
  new OwnerAsk(submit, command, deadline, options, done).go();
}

/**
 * One command's round trip, as an object rather than closures, and the waiter of each of its
 * sends: the publish path makes one per message, and each named closure costs a property
 * definition when it is made (the runtime's transpiler keeps function names).
 */
class OwnerAsk implements ReplyWaiter {
  #done = false;
  #inFlight = 0;
  #refusals = 0;
  #repeats = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly submit: Submit;
  readonly command: Uint8Array;
  readonly deadline: number;
  readonly options: AskOptions;
  readonly outcome: AskDone;

  constructor(submit: Submit, command: Uint8Array, deadline: number, options: AskOptions, outcome: AskDone) {
    this.submit = submit;
    this.command = command;
    this.deadline = deadline;
    this.options = options;
    this.outcome = outcome;
  }

  go(): void {
    if (this.#done) return;
    if (this.deadline - Date.now() <= 0) {
      if (this.#inFlight === 0) this.#fail(noOwner());
      return;
    }
    this.#inFlight++;
    if (this.options.repeatable) {
      // a repeat that could not leave before the deadline is not planned
      const resendAfter = this.options.resendAfterMs ?? RESEND_AFTER_MS;
      const wait = resendAfter[Math.min(this.#repeats++, resendAfter.length - 1)]!;
      if (Date.now() + wait < this.deadline) this.#sendIn(wait);
    }
    // this object is each send's waiter: settle or fail, once per send
    this.submit(this.command, this.deadline, this);
  }

  /** A send's reply: the first one ends the round trip. */
  settle(reply: CommandReply): void {
    if (this.#finish()) this.outcome.answered(reply);
  }

  /** After a refusal (NoResponders), a node announced the partition: the back-off ends now. */
  ownerAnnounced(): void {
    // nothing in flight and not done: the only thing planned is the back-off's send
    if (this.#done || this.#inFlight > 0) return;
    clearTimeout(this.#timer);
    this.go();
  }

  /** A send failed. */
  fail(error: unknown): void {
    this.#inFlight--;
    if (this.#done) return;
    if (isNoResponders(error)) {
      // not delivered; an earlier send still in flight may yet answer, and the planned repeat
      // stands. Alone, send again after the back-off (or fail at the deadline).
      if (this.#inFlight > 0) return;
      this.#sendIn(Math.min(BACKOFF_MS[Math.min(this.#refusals++, BACKOFF_MS.length - 1)]!, Math.max(0, this.deadline - Date.now())));
      return;
    }
    if (error instanceof OwnerLostError && this.options.repeatable) {
      // that send will never be answered; another still in flight may be. Alone, send again now
      if (this.#inFlight === 0) this.go();
      return;
    }
    // a time-out is the deadline itself, and a lost connection takes every send with it
    this.#fail(unavailable(error));
  }

  #fail(error: ServiceError): void {
    if (this.#finish()) this.outcome.failed(error);
  }

  /** Marks the ask done; false when it already was. */
  #finish(): boolean {
    if (this.#done) return false;
    this.#done = true;
    clearTimeout(this.#timer);
    return true;
  }

  /** The next send, `ms` from now, in place of any that was planned. */
  #sendIn(ms: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(goLater, ms, this);
  }
}

function goLater(ask: OwnerAsk): void {
  ask.go();
}
