/**
 * Which waiting actor batches a commit lane takes next. Every actor has at most one batch in
 * flight, so at most one batch per partition waits here; but an environment that floods many
 * channels has a batch waiting in every partition, and first-come order would make a quiet
 * environment's batch wait behind all of them. Instead, a batch is ranked by the lightest
 * environment it carries (the fewest commands waiting in all batches): a batch holding a quiet
 * environment's command goes first, batches holding only the flood go last. Ties keep arrival
 * order. The flood is not starved while there is room: a lane fills its transaction up to
 * `maxCommands` in that order.
 */
import type { ChannelCommand } from '@rtm/schemas';

/** Indices of `pending` to commit together, in commit order. Never empty when `pending` is not. */
export function takeFairGroup(pending: readonly (readonly Pick<ChannelCommand, 'environmentId'>[])[], maxCommands: number): number[] {
  if (pending.length <= 1) return pending.length === 1 ? [0] : [];
  const waiting = new Map<string, number>();
  for (const commands of pending) for (const c of commands) waiting.set(c.environmentId, (waiting.get(c.environmentId) ?? 0) + 1);
  const rank = pending.map((commands) => {
    let lightest = Infinity;
    for (const c of commands) lightest = Math.min(lightest, waiting.get(c.environmentId)!);
    return lightest;
  });
  const order = pending.map((_, i) => i).sort((a, b) => rank[a]! - rank[b]! || a - b);
  const taken: number[] = [];
  let size = 0;
  for (const i of order) {
    const length = pending[i]!.length;
    if (taken.length > 0 && size + length > maxCommands) break;
    taken.push(i);
    size += length;
  }
  return taken;
}

/**
 * `taken` (takeFairGroup's indices) without mixing slow submissions with the others: a slow one
 * first in line goes alone; otherwise the slow ones wait for a transaction of their own. A slow
 * submission is one holding a reaction group (its reads and summary are the heaviest work a
 * transaction carries): merged with other partitions' batches, it held their publishes until
 * its summary was written.
 */
export function apartFromSlow(taken: readonly number[], slow: (index: number) => boolean): number[] {
  if (taken.length === 0) return [];
  if (slow(taken[0]!)) return [taken[0]!];
  return taken.filter((i) => !slow(i));
}
