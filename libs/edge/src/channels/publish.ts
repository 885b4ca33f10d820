/**
 * The gateway's publishes to channel owners: checked here (size, namespace), then sent through
 * `deps.owners` (libs/owner-client: the round trip, its retries and time-outs), with their latency
 * recorded. Retractions go straight through `deps.owners.send`.
 */
import { ServiceError } from '@rtm/errors';
import { MAX_CONTENT_BYTES, type ChannelCommand, type PublishResult } from '@rtm/schemas';
import type { PublishRoute } from '@rtm/usage';
import { Histogram, type Registry } from 'prom-client';
import { histogramSpec } from '@rtm/ops';
import type { EdgeDeps } from '../edge-deps.ts';
import type { ResolvedNamespace } from '@rtm/rules';
import { namespaceOf } from '../access/channel-access.ts';

/** The fields of a publish as the HTTP body and the socket frames carry them. */
export interface PublishFields {
  type?: string;
  /** The content's JSON text exactly as it arrived (raw-content.ts), already validated as an object. */
  content: string;
  to?: string[];
  mentions?: string[];
  ephemeral?: boolean;
  idempotencyKey?: string;
}

/** A publish's channel, fields and sender, as every entry point hands them over. */
type PublishArgs = [
  environmentId: string,
  channelId: string,
  fields: PublishFields,
  kind: 'server' | 'user',
  sender: { id: string; anon: boolean },
  route: PublishRoute,
];

/** What a publish reads (the channel's namespace), sends through (the owners) and records (metrics). */
export type PublishDeps = Pick<EdgeDeps, 'accessCache' | 'metrics' | 'owners' | 'pool'>;

/**
 * One publish from any entry point (HTTP on either host, the channel socket, the multiplexed
 * socket): checked (preparePublish), then sent to the channel's owner.
 */
export async function sendPublish(deps: PublishDeps, ...args: PublishArgs): Promise<PublishResult> {
  const kind = args[3];
  const started = performance.now();
  let outcome = 'ok';
  try {
    return await deps.owners.send(await preparePublish(deps, ...args));
  } catch (error) {
    outcome = error instanceof ServiceError ? error.code : 'internal';
    throw error;
  } finally {
    recordPublish(deps, kind, started, outcome);
  }
}

/** One publish's outcome and its latency since `started` (`gateway_publish_seconds`): the single routes and each message of a batch. */
export function recordPublish(deps: Pick<EdgeDeps, 'metrics'>, kind: 'server' | 'user', started: number, outcome: string): void {
  publishSeconds(deps.metrics).observe({ sender: kind, outcome }, (performance.now() - started) / 1000);
}

/**
 * Publish latency as the gateway sees it (owner round trip, including the commit), over every
 * entry point: HTTP on both hosts, the channel socket and /v1/connect. One histogram per registry,
 * made when the gateway's parts are (so it is scraped, empty, before the first publish).
 */
export function publishSeconds(registry: Registry): Histogram<'sender' | 'outcome'> {
  const existing = registry.getSingleMetric('gateway_publish_seconds');
  if (existing) return existing as Histogram<'sender' | 'outcome'>;
  return new Histogram({
    ...histogramSpec('gateway_publish_seconds'),
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
}

/**
 * The command of a publish: the content's size as sent (UTF-8 bytes of its text) is checked (413
 * over 64 KiB, or over the channel namespace's `maxContentBytes`), and a namespace with
 * `persist: false` makes it ephemeral.
 */
export async function preparePublish(
  deps: Pick<EdgeDeps, 'accessCache' | 'pool'>,
  environmentId: string,
  channelId: string,
  fields: PublishFields,
  kind: 'server' | 'user',
  sender: { id: string; anon: boolean },
  route: PublishRoute,
): Promise<Extract<ChannelCommand, { op: 'publish' }>> {
  checkContentSize(fields);
  return buildPublish(await namespaceOf(deps, environmentId, channelId), environmentId, channelId, fields, kind, sender, route);
}

/** 413 for content over 64 KiB as sent, whatever its namespace (checked before the namespace is read). */
export function checkContentSize(fields: PublishFields): void {
  if (Buffer.byteLength(fields.content, 'utf8') > MAX_CONTENT_BYTES) throw new ServiceError('payload_too_large', 'content is over 64 KiB');
}

/** preparePublish once the channel's namespace is known: synchronous, so a batch needs no promise per message. */
export function buildPublish(
  namespace: ResolvedNamespace,
  environmentId: string,
  channelId: string,
  fields: PublishFields,
  kind: 'server' | 'user',
  sender: { id: string; anon: boolean },
  route: PublishRoute,
): Extract<ChannelCommand, { op: 'publish' }> {
  const size = Buffer.byteLength(fields.content, 'utf8');
  if (namespace.maxContentBytes !== null && size > namespace.maxContentBytes) {
    throw new ServiceError(
      'payload_too_large',
      `content is over ${namespace.maxContentBytes} bytes (the limit of namespace ${JSON.stringify(namespace.prefix)})`,
    );
  }
  return {
    op: 'publish',
    environmentId,
    channelId,
    type: fields.type ?? 'message',
    kind,
    content: fields.content,
    sender,
    to: fields.to,
    mentions: fields.mentions,
    ephemeral: (fields.ephemeral ?? false) || !namespace.persist,
    idempotencyKey: fields.idempotencyKey,
    // the owner counts the message under it once committed (an idempotent repeat is not)
    route,
  };
}
