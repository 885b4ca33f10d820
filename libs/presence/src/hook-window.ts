/**
 * Presence webhook events of one window (pure): the transitions a gateway reports
 * (hook-tracker.ts) gathered for HOOK_WINDOW_MS, then given out as events.
 *
 * - Its own writes' transitions (`own`) are coalesced like presence frames: per channel, and per
 *   user, only the net change of the window goes out. A channel vacated and occupied again (or
 *   occupied and vacated) within the window sends nothing; a user who left and entered again sends
 *   nothing; one who entered then left, nothing. What goes out is the window's last transition
 *   (its data: the newest; an update of the data after an enter in the window refreshes it).
 * - Transitions several gateways may report (`expiry`, `write`) are not merged with anything: each
 *   goes out as its group (the write, or the record that aged out) made it, so every gateway that
 *   reports it makes the same event, with the same id.
 * - `presence.entered` / `presence.left`: one event per channel and window (per group for the
 *   others) carrying its members sorted by user id, at most PRESENCE_EVENT_MEMBERS_MAX each;
 *   more make further events.
 *
 * Each event has a `key`, what its id is drawn from: the type, the channel, and the `since` of
 * the transition (of each member's, for presence events). The same decision always gives the
 * same key; two decisions never do.
 */
import type { HookTransition, Stamp } from './hook-tracker.ts';

/** How long a gateway gathers its presence webhook transitions before recording them (one statement). */
export const HOOK_WINDOW_MS = 1_000;
/** The most members in one `presence.entered` or `presence.left` event (libs/schemas PRESENCE_EVENT_MEMBERS_MAX). */
export const HOOK_MEMBERS_MAX = 50;

export type HookEventType = 'channel.occupied' | 'channel.vacated' | 'presence.entered' | 'presence.left';

export interface HookMember {
  userId: string;
  /** Serialized JSON. */
  data: string;
}

export interface HookEvent {
  type: HookEventType;
  /** `<env>.<channel token>`. */
  channel: string;
  /** What the event's id is drawn from. */
  key: string;
  /** The time part of the id (ms): the earliest `since` in it. */
  idTime: number;
  /** When it happened (ms): the body's `timestamp`. */
  time: number;
  members?: HookMember[];
}

interface Span {
  first: HookTransition;
  last: HookTransition;
}

interface Own {
  channel?: Span;
  users: Map<string, Span>;
}

const TYPES: Record<Exclude<HookTransition['kind'], 'updated'>, HookEventType> = {
  occupied: 'channel.occupied',
  vacated: 'channel.vacated',
  entered: 'presence.entered',
  left: 'presence.left',
};

const stampKey = (stamp: Stamp) => `${stamp.revision}.${stamp.time}`;

export class HookWindow {
  private readonly own = new Map<string, Own>();
  /** Channel transitions as they are (not own), and presence members by (channel, kind, group). */
  private readonly others: HookTransition[] = [];
  private readonly groups = new Map<string, HookTransition[]>();
  private count = 0;

  /** Transitions waiting. */
  get size(): number {
    return this.count;
  }

  add(transition: HookTransition): void {
    if (transition.kind === 'updated') {
      // an enter then an update within the window: entered with the newer data
      const span = transition.source === 'own' ? this.own.get(transition.channel)?.users.get(transition.userId!) : undefined;
      if (span?.last.kind === 'entered') span.last = { ...span.last, data: transition.data! };
      return;
    }
    this.count++;
    const entry = transition.kind === 'entered' || transition.kind === 'left';
    if (transition.source !== 'own') {
      if (!entry) this.others.push(transition);
      else {
        const key = `${transition.channel}\u0000${transition.kind}\u0000${transition.group}`;
        let group = this.groups.get(key);
        if (!group) this.groups.set(key, (group = []));
        group.push(transition);
      }
      return;
    }
    let own = this.own.get(transition.channel);
    if (!own) this.own.set(transition.channel, (own = { users: new Map() }));
    if (!entry) {
      if (own.channel) own.channel.last = transition;
      else own.channel = { first: transition, last: transition };
      return;
    }
    const span = own.users.get(transition.userId!);
    if (span) span.last = transition;
    else own.users.set(transition.userId!, { first: transition, last: transition });
  }

  /** Closes the window: its events (none when it only flapped). */
  drain(): HookEvent[] {
    const events: HookEvent[] = [];
    for (const [channel, own] of this.own) {
      const span = own.channel;
      // occupied before the window unless its first transition occupied it; after it if its last did
      if (span && (span.first.kind === 'vacated') !== (span.last.kind === 'occupied')) events.push(channelEvent(span.last));
      const net: HookTransition[] = [];
      for (const { first, last } of own.users.values()) if ((first.kind === 'left') !== (last.kind === 'entered')) net.push(last);
      for (const kind of ['entered', 'left'] as const) {
        events.push(
          ...memberEvents(
            channel,
            kind,
            net.filter((t) => t.kind === kind),
          ),
        );
      }
    }
    for (const transition of this.others) events.push(channelEvent(transition));
    for (const group of this.groups.values()) events.push(...memberEvents(group[0]!.channel, group[0]!.kind as 'entered' | 'left', group));
    this.own.clear();
    this.others.length = 0;
    this.groups.clear();
    this.count = 0;
    return events;
  }
}

function channelEvent(transition: HookTransition): HookEvent {
  const type = TYPES[transition.kind as 'occupied' | 'vacated'];
  return {
    type,
    channel: transition.channel,
    key: `${type}|${transition.channel}|${stampKey(transition.since)}`,
    idTime: transition.since.time,
    time: transition.time,
  };
}

/** One kind's members of a channel, sorted by user id, in events of at most HOOK_MEMBERS_MAX. */
function memberEvents(channel: string, kind: 'entered' | 'left', transitions: HookTransition[]): HookEvent[] {
  if (transitions.length === 0) return [];
  const type = TYPES[kind];
  const sorted = [...transitions].sort((a, b) => (a.userId! < b.userId! ? -1 : a.userId! > b.userId! ? 1 : 0));
  const events: HookEvent[] = [];
  for (let start = 0; start < sorted.length; start += HOOK_MEMBERS_MAX) {
    const chunk = sorted.slice(start, start + HOOK_MEMBERS_MAX);
    events.push({
      type,
      channel,
      key: `${type}|${channel}|${chunk.map((t) => `${t.userId}@${stampKey(t.since)}`).join(',')}`,
      idTime: Math.min(...chunk.map((t) => t.since.time)),
      time: Math.max(...chunk.map((t) => t.time)),
      members: chunk.map((t) => ({ userId: t.userId!, data: t.data! })),
    });
  }
  return events;
}
