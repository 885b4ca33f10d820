/**
 * Commits a list of commands so that a command whose statement fails (a case validation did not
 * foresee) fails alone: the transaction is retried without it, by bisection. With k such commands
 * among n, that costs at most about 2·k·log2(n) extra transactions, instead of one per command;
 * every other command commits exactly once, in its original order (the halves run one after the
 * other, left first, so a channel's commands keep their order and each attempt re-plans seqs
 * from what is committed).
 *
 * Errors that are not the command's fault (no database, a fence lost to another writer) are not
 * bisected: they are thrown as they are, for the caller to answer every command with.
 */
import type { CommandReply } from '@rtm/schemas';
import type { BatchOutcome } from './commit-batch.ts';

export interface Isolation<C> {
  /** One transaction for these commands; its outcome is indexed like `commands`. */
  attempt(commands: readonly C[]): Promise<BatchOutcome>;
  /** True when the error is not caused by the commands (then it is rethrown, never bisected). */
  isSystemic(error: unknown): boolean;
  /** The reply of a command that fails alone. */
  failed(command: C, error: unknown): CommandReply;
}

export async function commitIsolating<C>(commands: readonly C[], isolation: Isolation<C>): Promise<BatchOutcome> {
  try {
    return await isolation.attempt(commands);
  } catch (error) {
    if (isolation.isSystemic(error)) throw error;
    if (commands.length === 1) {
      return { replies: [isolation.failed(commands[0]!, error)], frames: [], notifications: [], logs: [], states: new Map() };
    }
    const middle = Math.ceil(commands.length / 2);
    const left = await commitIsolating(commands.slice(0, middle), isolation);
    const right = await commitIsolating(commands.slice(middle), isolation);
    return concatOutcomes(left, right, middle);
  }
}

/** `right`'s indexes follow `left`'s `offset` commands. */
export function concatOutcomes(left: BatchOutcome, right: BatchOutcome, offset: number): BatchOutcome {
  const shift = <T extends { index: number }>(item: T): T => ({ ...item, index: item.index + offset });
  return {
    replies: [...left.replies, ...right.replies],
    frames: [...left.frames, ...right.frames.map(shift)],
    notifications: [...left.notifications, ...right.notifications.map(shift)],
    logs: [...left.logs, ...right.logs.map(shift)],
    states: new Map([...left.states, ...right.states]),
  };
}
