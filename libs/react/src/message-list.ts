/**
 * Applying a channel's changes to a list of messages an application keeps (in React state, say):
 * pure functions that return a new list, or the same list when nothing in it changed, so that a
 * `setState(list => withUpdate(list, update))` re-renders only when it must.
 */
import type { Message, MessageUpdate, ReactionsUpdate, Retraction } from '@rtm/client';

function replaceById(list: readonly Message[], id: string, change: (message: Message) => Message | undefined): Message[] {
  const index = list.findIndex((message) => message.id === id);
  if (index < 0) return list as Message[];
  const changed = change(list[index]!);
  if (changed === undefined) return list as Message[];
  const next = list.slice();
  next[index] = changed;
  return next;
}

/**
 * An `update`: the message as it is now (new `content`, `version`, `updatedAt`, `updatedBy`,
 * `reactions`) replaces the one in the list, unless the list holds a higher version (the update
 * arrived late). A message not in the list is left out (it was never shown).
 */
export function withUpdate(list: readonly Message[], update: MessageUpdate): Message[] {
  return replaceById(list, update.id, (held) => {
    if ((held.version ?? 1) > (update.version ?? 1)) return undefined;
    const { eventSeq: _eventSeq, ...message } = update;
    return message;
  });
}

/** A `summary`: the message's `reactions` become the summary's (none left: the field goes). */
export function withSummary(list: readonly Message[], summary: ReactionsUpdate): Message[] {
  return replaceById(list, summary.id, (held) => {
    const { reactions: _reactions, ...rest } = held;
    return Object.keys(summary.reactions).length === 0 ? rest : { ...rest, reactions: summary.reactions };
  });
}

/** A `retract`: the message becomes its tombstone (`retracted`, `content: null`, no reactions), as history shows it. */
export function withRetraction(list: readonly Message[], retraction: Retraction): Message[] {
  return replaceById(list, retraction.id, (held) => {
    if (held.retracted) return undefined;
    const { reactions: _reactions, ...rest } = held;
    return { ...rest, retracted: true, content: null };
  });
}
