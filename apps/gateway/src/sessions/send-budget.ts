/**
 * The gateway-wide budget of bytes queued to clients. Each socket keeps its own limit
 * (SOCKET_BUFFER_LIMIT); this bounds their sum, so thousands of clients that stop reading cannot
 * take the gateway's memory together while each stays under its own limit. Every `intervalMs`
 * the queued bytes of all registered sockets are summed; over the budget, the sockets with the
 * most queued are shed first (closed as slow consumers) until the rest fit.
 *
 * What is counted is what this process holds (ws's queue and the TCP socket's writable buffer).
 * The kernel's send queue of each socket comes on top, bounded by the host's TCP send buffer
 * (net.ipv4.tcp_wmem); a shed socket is reset after its close grace, which frees that queue too.
 */
export interface Sheddable {
  /** Bytes queued in this process for the peer. */
  readonly queued: number;
  /** Closes the socket as a slow consumer; it stops counting from then on. */
  shed(): void;
}

/**
 * Which entries to shed so that the rest fit in `budget`: the largest first, and no more than
 * needed. Returns indices into `queued`, largest first.
 */
export function pickSheddable(queued: readonly number[], budget: number): number[] {
  let total = 0;
  for (const bytes of queued) total += bytes;
  if (total <= budget) return [];
  const order = queued.map((_, index) => index).sort((a, b) => queued[b]! - queued[a]!);
  const picked: number[] = [];
  for (const index of order) {
    if (total <= budget) break;
    picked.push(index);
    total -= queued[index]!;
  }
  return picked;
}

export interface SendBudgetHooks {
  /** After each check: the bytes counted and how many sockets were shed. */
  checked?(queued: number, shed: number): void;
}

export class SendBudget {
  private readonly budget: number;
  private readonly intervalMs: number;
  private readonly hooks: SendBudgetHooks;
  private readonly members = new Set<Sheddable>();
  private timer: NodeJS.Timeout | undefined;

  constructor(budget: number, options: { intervalMs?: number } & SendBudgetHooks = {}) {
    this.budget = budget;
    this.intervalMs = options.intervalMs ?? 100;
    this.hooks = options;
  }

  /** Counts a socket until the returned function is called; the check runs only while any is counted. */
  add(member: Sheddable): () => void {
    this.members.add(member);
    if (!this.timer) {
      this.timer = setInterval(() => this.check(), this.intervalMs);
      this.timer.unref();
    }
    return () => {
      this.members.delete(member);
      if (this.members.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    };
  }

  check(): void {
    const members = [...this.members];
    const queued = members.map((member) => member.queued);
    const picked = pickSheddable(queued, this.budget);
    for (const index of picked) {
      this.members.delete(members[index]!);
      members[index]!.shed();
    }
    this.hooks.checked?.(queued.reduce((sum, bytes) => sum + bytes, 0), picked.length);
  }
}
