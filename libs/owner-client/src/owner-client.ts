/**
 * Any process → channel owner. A command is a NATS request on its partition's subject, answered
 * by the partition's owner only after commit; the round trip's rules (retries, repeats, what a
 * time-out means) are in ask-owner.ts, the gathering of one turn's commands per partition and
 * node in owner-batcher.ts. Nothing waits longer than the owner timeout. The gateway sends
 * publishes, retractions, edits and reactions through it, the dispatcher an erasure's retractions.
 */
import type { Counter } from 'prom-client';
import { ServiceError, ERRORS, type ErrorCode } from '@rtm/errors';
import { partitionOf, type NatsConnection, type Requester, type Subjects } from '@rtm/bus';
import { encodeCommand, type ChannelCommand, type CommandReply, type EditResult, type PublishResult, type ReactResult, type RetractResult } from '@rtm/schemas';
import { startAsk, type AskDone } from './ask-owner.ts';
import { OwnerBatcher } from './owner-batcher.ts';
import type { LingerOptions } from '@rtm/ops';

/** Told a command's outcome exactly once: the owner's result, or the ServiceError. */
type AnyResult = PublishResult | RetractResult | EditResult | ReactResult;

export interface CommandDone {
  answered(result: AnyResult): void;
  failed(error: ServiceError): void;
}

export interface OwnerClientOptions {
  nc: NatsConnection;
  requester: Requester;
  subjects: Subjects;
  /** PARTITIONS: every process of a cluster must agree on it. */
  partitions: number;
  /** OWNER_TIMEOUT_MS: how long a command may wait for its owner's answer. */
  ownerTimeoutMs: number;
  /** Bus requests to owners by route: `partition` (a partition's subject) or `node` (a bundle). */
  requests: Counter<'route'>;
  /** How a node's bundle waits for more commands under load (owner-batcher.ts; default: never). */
  linger?: LingerOptions;
  /** Bundles held back, by how the wait ended. */
  lingered?: Counter<'end'>;
}

export class OwnerClient {
  readonly #batcher: OwnerBatcher;
  readonly #partitions: number;
  readonly #timeoutMs: number;

  constructor(options: OwnerClientOptions) {
    const { nc, requester, subjects, requests, linger, lingered } = options;
    this.#batcher = new OwnerBatcher({ nc, requester, subjects, requests, ...(linger && { linger }), ...(lingered && { lingered }) });
    this.#partitions = options.partitions;
    this.#timeoutMs = options.ownerTimeoutMs;
  }

  /** Listens to the channel-nodes' announcements of their partitions (the owner directory). */
  start(): void {
    this.#batcher.start();
  }

  stop(): void {
    this.#batcher.stop();
  }

  send(command: Extract<ChannelCommand, { op: 'publish' }>): Promise<PublishResult>;
  send(command: Extract<ChannelCommand, { op: 'retract' }>): Promise<RetractResult>;
  send(command: Extract<ChannelCommand, { op: 'edit' }>): Promise<EditResult>;
  send(command: Extract<ChannelCommand, { op: 'react' }>): Promise<ReactResult>;
  send(command: ChannelCommand): Promise<AnyResult> {
    return new Promise((resolve, reject) => this.submit(command, { answered: resolve, failed: reject }));
  }

  /**
   * `send` without a promise: `done` is told the outcome. A batch submits each of its messages
   * this way and awaits once for all of them.
   */
  submit(command: ChannelCommand, done: CommandDone): void {
    const partition = partitionOf(command.environmentId, command.channelId, this.#partitions);
    startAsk(
      // commands of this turn for the same partition (and node) leave together (owner-batcher.ts)
      // a reaction is held by its owner until its message's next summary: it travels apart, so
      // that no publish waits for that summary's reply
      (encoded, deadline, waiter) => this.#batcher.submit(partition, encoded, deadline, waiter, command.op === 'react'),
      // header + the content's bytes as sent (libs/schemas command-codec.ts), encoded once for any repeat
      encodeCommand(command),
      Date.now() + this.#timeoutMs,
      // the owner answers a repeat of a keyed, persisted publish with the first result; a
      // reaction repeated changes nothing (one per user and type)
      { repeatable: (command.op === 'publish' && !command.ephemeral && command.idempotencyKey !== undefined) || command.op === 'react' },
      new ReplyOutcome(done),
    );
  }
}

/** An owner's reply as the caller's outcome: its result, or its error code as a ServiceError. */
class ReplyOutcome implements AskDone {
  readonly #done: CommandDone;

  constructor(done: CommandDone) {
    this.#done = done;
  }

  answered(reply: CommandReply): void {
    if (reply.ok) return this.#done.answered(reply.result);
    const code: ErrorCode = reply.code in ERRORS ? (reply.code as ErrorCode) : 'internal';
    this.#done.failed(new ServiceError(code, reply.reason, reply.quota && { quota: reply.quota }));
  }

  failed(error: ServiceError): void {
    this.#done.failed(error);
  }
}
