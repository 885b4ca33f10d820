/**
 * `POST /v1/messages/batch`: up to 100 messages for one or many channels in one request.
 * Guarantees:
 * - one result per message, in request order: `{id, seq, timestamp}` (committed before the
 *   answer), `{id, ephemeral: true}`, or `{error: {code, reason}}` for a message that was not
 *   published; one refused message never fails another;
 * - each message passes the same checks as a single publish (on the realtime edge: access to
 *   its channel, decided once per channel of the batch; content size and namespace) and counts
 *   once against the per-message rate limits: messages past a limit get `rate_limited`, those
 *   before it are published;
 * - messages for the same channel get seqs in request order: every command leaves in request
 *   order in the same turn, so each partition's owner receives them in one request, in order
 *   (libs/owner-client owner-batcher.ts);
 * - idempotency keys work per message, as on the single route.
 */
import { ServiceError, type QuotaDetail } from '@rtm/errors';
import type { ChannelCommand, PublishResult, RetractResult } from '@rtm/schemas';
import type { ResolvedNamespace } from '@rtm/rules';
import type { EdgeDeps } from '../edge-deps.ts';
import { namespaceOf } from '../access/channel-access.ts';
import type { CommandDone } from '@rtm/owner-client';
import { buildPublish, checkContentSize, recordPublish, type PublishFields } from './publish.ts';

type PublishCommand = Extract<ChannelCommand, { op: 'publish' }>;

export interface BatchItem extends PublishFields {
  channelId: string;
  /** Control plane only: the sender shown to clients (default "server"). */
  senderId?: string;
}

export type BatchResult =
  | { id: string; seq: number; timestamp: number }
  | { id: string; ephemeral: true }
  | { error: { code: string; reason?: string; quota?: QuotaDetail } };

export interface BatchCaller {
  environmentId: string;
  kind: 'server' | 'user';
  /** The token's user on the realtime edge; undefined on the control plane. */
  user?: { id: string; anon: boolean };
  /** Throws the ServiceError that refuses publishing to `channelId` (realtime edge). */
  authorize?: (channelId: string) => Promise<unknown>;
}

/** What a batch reads (namespaces), limits, sends through, records and logs. */
export type BatchDeps = Pick<EdgeDeps, 'accessCache' | 'limits' | 'log' | 'metrics' | 'owners' | 'pool'>;

export async function publishBatch(deps: BatchDeps, caller: BatchCaller, items: readonly BatchItem[]): Promise<BatchResult[]> {
  const results: (BatchResult | undefined)[] = new Array(items.length);
  const refuse = (index: number, error: unknown) => {
    if (!(error instanceof ServiceError)) deps.log.error({ err: error, channelId: items[index]!.channelId }, 'a message of a batch publish failed');
    results[index] = { error: errorOf(error) };
  };

  // 1. access and the namespace, once per channel of the batch (both are cached per channel)
  const channels = new Map<string, Promise<ResolvedNamespace>>();
  for (const item of items) {
    if (channels.has(item.channelId)) continue;
    const allowed = caller.authorize ? caller.authorize(item.channelId) : Promise.resolve();
    channels.set(
      item.channelId,
      allowed.then(() => namespaceOf(deps, caller.environmentId, item.channelId)),
    );
  }
  const namespaces = new Map<string, ResolvedNamespace | { refused: unknown }>();
  await Promise.all(
    [...channels].map(([channelId, namespace]) =>
      namespace.then(
        (resolved) => void namespaces.set(channelId, resolved),
        (error: unknown) => void namespaces.set(channelId, { refused: error }),
      ),
    ),
  );
  // 2. each message's command (size, namespace), without a promise per message
  const commands: (PublishCommand | undefined)[] = new Array(items.length);
  items.forEach((item, index) => {
    try {
      // as a single publish: access first, then the size, then the namespace's own limit
      const namespace = namespaces.get(item.channelId)!;
      if ('refused' in namespace) throw namespace.refused;
      checkContentSize(item);
      const sender = caller.user ?? { id: item.senderId ?? 'server', anon: false };
      commands[index] = buildPublish(namespace, caller.environmentId, item.channelId, item, caller.kind, sender, 'batch');
    } catch (error) {
      refuse(index, error);
    }
  });
  // 3. the rate limits, message by message in request order
  for (const [index, command] of commands.entries()) {
    if (!command) continue;
    const refused = await deps.limits.admitMessage(caller.environmentId, caller.user?.id, items[index]!.mentions?.length ?? 0);
    if (refused) {
      refuse(index, new ServiceError('rate_limited', `over the ${refused} limit`));
      commands[index] = undefined;
    }
  }
  // 4. every admitted command leaves in this turn, in request order; one wait for all answers
  await new Promise<void>((resolve) => {
    const sent = new BatchSends(deps, caller.kind, results, refuse, resolve);
    commands.forEach((command, index) => command && sent.submit(index, command));
    sent.close();
  });
  // nothing published because the monthly quota is spent: the whole request is refused, as a
  // single publish would be (a batch that crosses the limit answers item by item instead)
  const refusals = results.map((r) => (r && 'error' in r ? r.error : undefined));
  const first = refusals[0];
  if (first?.code === 'quota_exceeded' && refusals.every((e) => e?.code === 'quota_exceeded')) {
    throw new ServiceError('quota_exceeded', first.reason, first.quota && { quota: first.quota });
  }
  return results as BatchResult[];
}

/** The answers of a batch's commands, each into its slot; `allDone` once every one is in. */
class BatchSends {
  readonly #deps: Pick<EdgeDeps, 'metrics' | 'owners'>;
  readonly #kind: 'server' | 'user';
  readonly #results: (BatchResult | undefined)[];
  readonly #refuse: (index: number, error: unknown) => void;
  readonly #allDone: () => void;
  readonly #started = performance.now();
  #waiting = 1; // until close(): nothing ends before every command was submitted

  constructor(
    deps: Pick<EdgeDeps, 'metrics' | 'owners'>,
    kind: 'server' | 'user',
    results: (BatchResult | undefined)[],
    refuse: (index: number, error: unknown) => void,
    allDone: () => void,
  ) {
    this.#deps = deps;
    this.#kind = kind;
    this.#results = results;
    this.#refuse = refuse;
    this.#allDone = allDone;
  }

  submit(index: number, command: PublishCommand): void {
    this.#waiting++;
    this.#deps.owners.submit(command, new BatchSlot(this, index));
  }

  close(): void {
    this.#ended();
  }

  answered(index: number, result: PublishResult): void {
    this.#results[index] = resultOf(result);
    this.#observe('ok');
  }

  failed(index: number, error: ServiceError): void {
    this.#refuse(index, error);
    this.#observe(error.code);
  }

  #observe(outcome: string): void {
    recordPublish(this.#deps, this.#kind, this.#started, outcome);
    this.#ended();
  }

  #ended(): void {
    if (--this.#waiting === 0) this.#allDone();
  }
}

/** One command's answer, into its batch's slot. */
class BatchSlot implements CommandDone {
  readonly #sends: BatchSends;
  readonly #index: number;

  constructor(sends: BatchSends, index: number) {
    this.#sends = sends;
    this.#index = index;
  }

  answered(result: PublishResult | RetractResult): void {
    this.#sends.answered(this.#index, result as PublishResult);
  }

  failed(error: ServiceError): void {
    this.#sends.failed(this.#index, error);
  }
}

function resultOf(result: PublishResult): BatchResult {
  return result.ephemeral ? { id: result.id, ephemeral: true } : { id: result.id, seq: result.seq, timestamp: result.timestamp };
}

function errorOf(error: unknown): { code: string; reason?: string; quota?: QuotaDetail } {
  if (error instanceof ServiceError) return error.toJSON();
  return { code: 'internal' };
}
