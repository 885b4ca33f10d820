/**
 * What a channel-node counts of its commits (docs/stats.md), once committed: each message
 * published (persisted, or an ephemeral one relayed) under the route its command carries, each
 * channel with a message or a change in the minute, each mention notification stored and each
 * webhook delivery written. A commit's outcome holds only what it wrote: an idempotent repeat
 * (answered from the first publish's result) has no frame, a command that failed has none, and a
 * retried transaction (a fence, the isolation of a failing command) hands over the outcome of
 * the attempt that committed only; so nothing is counted twice. Counted per committed group, in
 * runs of one environment (and route, and channel), not one call per message.
 */
import { PUBLISHED_BY_ROUTE, type Usage } from '@rtm/usage';
import type { BatchOutcome, NodeCommand } from './batch-plan.ts';

/** An actor's batch after its commit (or its ephemeral relay): messages by route, channels, notifications. */
export function countCommitted(usage: Usage, commands: readonly NodeCommand[], outcome: BatchOutcome): void {
  let environmentId = '';
  let route: 'socket' | 'http' | 'batch' | undefined;
  let run = 0;
  let channelEnvironment = '';
  let channelId = '';
  for (const frame of outcome.frames) {
    const command = commands[frame.index]!;
    if (frame.environmentId !== channelEnvironment || frame.channelId !== channelId) {
      channelEnvironment = frame.environmentId;
      channelId = frame.channelId;
      usage.channel(channelEnvironment, channelId);
    }
    if (command.op !== 'publish') continue;
    // a command from a gateway that names no route was an HTTP publish of an older release
    const its = command.route ?? 'http';
    if (frame.environmentId !== environmentId || its !== route) {
      if (run > 0) usage.add(environmentId, PUBLISHED_BY_ROUTE[route!], run);
      environmentId = frame.environmentId;
      route = its;
      run = 0;
    }
    run += 1;
  }
  if (run > 0) usage.add(environmentId, PUBLISHED_BY_ROUTE[route!], run);
  countRuns(usage, outcome.notifications, (n) => n.environmentId, 'notifications');
}

/** A transaction's webhook deliveries written, once it committed (node-committer.ts). */
export function countWebhookEvents(usage: Usage, outcome: BatchOutcome): void {
  if (outcome.webhookEvents) countRuns(usage, outcome.webhookEvents, (e) => e, 'webhook_events');
}

function countRuns<T>(usage: Usage, items: readonly T[], environmentOf: (item: T) => string, counter: 'notifications' | 'webhook_events'): void {
  let environmentId = '';
  let run = 0;
  for (const item of items) {
    const its = environmentOf(item);
    if (its !== environmentId) {
      if (run > 0) usage.add(environmentId, counter, run);
      environmentId = its;
      run = 0;
    }
    run += 1;
  }
  if (run > 0) usage.add(environmentId, counter, run);
}
