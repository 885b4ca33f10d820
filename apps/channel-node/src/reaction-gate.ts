/**
 * The partition actor's gate for reactions: each message's reactions are let into the mailbox
 * together, as ONE group (a ReactionGroup: applied in order, summarised once), and a message's
 * next group only `intervalMs` after its last one committed. So a message gets at most one
 * summary (one seq, one `summary` frame, one `message.reactions` event) per interval however many
 * reactions arrive, and a storm on one message costs the channel a few small commits a second,
 * not one per reaction. The first reaction after a quiet interval goes at once (with the
 * reactions of the same request); later ones wait at most `intervalMs` for their answer.
 *
 * Nothing waits here unanswered: a held reaction is answered by its group's commit, or
 * `unavailable` when the actor stops (`abandon`); `flush` lets every held group go (a drain).
 */
export interface Gated {
  readonly command: { environmentId: string; channelId: string; messageId: string };
}

interface Gate<P> {
  held: P[];
  /** A group of this message is in the mailbox or committing. */
  inFlight: boolean;
  /** When its last group committed (0: never). */
  doneAt: number;
  timer: NodeJS.Timeout | undefined;
  scheduled: boolean;
}

export class ReactionGate<P extends Gated> {
  private readonly gates = new Map<string, Gate<P>>();
  private readonly release: (key: string, group: P[]) => void;
  private readonly intervalMs: number;
  private readonly now: () => number;

  /** `release` puts a group in the mailbox; the actor calls `committed(key)` once it is answered. */
  constructor(release: (key: string, group: P[]) => void, intervalMs: number, now: () => number = Date.now) {
    this.release = release;
    this.intervalMs = intervalMs;
    this.now = now;
  }

  static keyOf(command: Gated['command']): string {
    return `${command.environmentId}\u0000${command.channelId}\u0000${command.messageId}`;
  }

  /** Reactions held, over every message. */
  get size(): number {
    let held = 0;
    for (const gate of this.gates.values()) held += gate.held.length;
    return held;
  }

  offer(pending: P): void {
    const key = ReactionGate.keyOf(pending.command);
    let gate = this.gates.get(key);
    if (!gate) this.gates.set(key, (gate = { held: [], inFlight: false, doneAt: 0, timer: undefined, scheduled: false }));
    gate.held.push(pending);
    this.schedule(key, gate);
  }

  /** The group of `key` was committed (or failed): the next may go `intervalMs` from now. */
  committed(key: string): void {
    const gate = this.gates.get(key);
    if (!gate) return;
    gate.inFlight = false;
    gate.doneAt = this.now();
    if (gate.held.length > 0) this.schedule(key, gate);
    else this.forgetLater(key, gate);
  }

  /** Every held group goes now (the actor drains: what was accepted is committed). */
  flush(): void {
    for (const [key, gate] of this.gates) {
      clearTimeout(gate.timer);
      gate.timer = undefined;
      gate.scheduled = false;
      if (gate.held.length > 0) this.go(key, gate);
    }
  }

  /** Every held reaction, taken out (the actor stops: it answers them `unavailable`). */
  abandon(): P[] {
    const held: P[] = [];
    for (const gate of this.gates.values()) {
      clearTimeout(gate.timer);
      held.push(...gate.held);
    }
    this.gates.clear();
    return held;
  }

  private schedule(key: string, gate: Gate<P>): void {
    if (gate.inFlight || gate.scheduled) return;
    clearTimeout(gate.timer);
    gate.scheduled = true;
    const wait = gate.doneAt === 0 ? 0 : gate.doneAt + this.intervalMs - this.now();
    const go = () => {
      gate.scheduled = false;
      gate.timer = undefined;
      if (this.gates.get(key) === gate && gate.held.length > 0 && !gate.inFlight) this.go(key, gate);
    };
    // at once: after the current request's other commands (a microtask), so they join the group
    if (wait <= 0) queueMicrotask(go);
    else gate.timer = setTimeout(go, wait);
  }

  private go(key: string, gate: Gate<P>): void {
    const group = gate.held;
    gate.held = [];
    gate.inFlight = true;
    this.release(key, group);
  }

  /** A quiet message's gate is dropped once its interval has passed. */
  private forgetLater(key: string, gate: Gate<P>): void {
    clearTimeout(gate.timer);
    gate.timer = setTimeout(() => {
      gate.timer = undefined;
      if (this.gates.get(key) === gate && gate.held.length === 0 && !gate.inFlight) this.gates.delete(key);
    }, this.intervalMs);
    gate.timer.unref();
  }
}
