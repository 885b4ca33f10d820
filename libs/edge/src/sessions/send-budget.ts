/**
 * The gateway-wide budget of bytes queued to clients. Each socket keeps its own limit
 * (SOCKET_BUFFER_LIMIT); this bounds their sum, so thousands of clients that stop reading cannot
 * take the gateway's memory together while each stays under its own limit. Every `intervalMs`
 * the queued bytes of all registered sockets are summed; over the budget, the sockets with the
 * most queued are shed first (closed as slow consumers) until the rest fit.
 *
 * Each environment also has a share of it (`share` bytes, SOCKET_SEND_BUDGET_PER_ENVIRONMENT):
 * an environment over its share has its own largest sockets shed until it fits, before the
 * gateway-wide check, so thousands of one tenant's sockets that stop reading are closed while the
 * gateway-wide budget still has room for every other tenant's, and they cannot make the gateway's
 * memory (and the collector's work on it) grow up to the whole budget.
 *
 * What is counted is what this process holds (ws's queue and the TCP socket's writable buffer).
 * The kernel's send queue of each socket comes on top, bounded by the host's TCP send buffer
 * (net.ipv4.tcp_wmem); a shed socket is reset after its close grace, which frees that queue too.
 */
export interface Sheddable {
  /** Bytes queued in this process for the peer. */
  readonly queued: number;
  /** The environment whose share it counts in; '' (not yet authenticated) counts only in the whole budget. */
  readonly environmentId?: string;
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

/**
 * Which entries to shed so that each group (environment) fits in `share`: the largest of each
 * group over its share first, and no more than needed. Entries of group '' have no share.
 * Returns indices into `queued`.
 */
export function pickOverShares(queued: readonly number[], groups: readonly string[], share: number): number[] {
  const byGroup = new Map<string, number[]>();
  for (let index = 0; index < queued.length; index++) {
    const group = groups[index] ?? '';
    if (group === '') continue;
    const members = byGroup.get(group);
    if (members) members.push(index);
    else byGroup.set(group, [index]);
  }
  const picked: number[] = [];
  for (const members of byGroup.values()) {
    for (const at of pickSheddable(
      members.map((index) => queued[index]!),
      share,
    ))
      picked.push(members[at]!);
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

  private readonly share: number;

  /** `share`: the bytes one environment's sockets may hold together (default: the whole budget). */
  constructor(budget: number, options: { intervalMs?: number; share?: number } & SendBudgetHooks = {}) {
    this.budget = budget;
    this.share = Math.min(options.share ?? budget, budget);
    this.intervalMs = options.intervalMs ?? 100;
    this.hooks = options;
  }

  /**
   * Counts a socket until `remove`; the check runs only while any is counted. (Not a returned
   * closure: one per socket is memory a gateway of idle sockets does not need to spend.)
   */
  add(member: Sheddable): void {
    this.members.add(member);
    if (!this.timer) {
      this.timer = setInterval(() => this.check(), this.intervalMs);
      this.timer.unref();
    }
  }

  remove(member: Sheddable): void {
    this.members.delete(member);
    if (this.members.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  check(): void {
    // the common case, nothing over: one pass, no per-socket allocation (it runs 10 times a second
    // over every socket of the gateway)
    let total = 0;
    let byEnvironment: Map<string, number> | undefined;
    const shares = this.share < this.budget;
    for (const member of this.members) {
      const bytes = member.queued;
      if (bytes <= 0) continue;
      total += bytes;
      const environmentId = member.environmentId;
      if (shares && environmentId) (byEnvironment ??= new Map()).set(environmentId, (byEnvironment.get(environmentId) ?? 0) + bytes);
    }
    let overShare = false;
    for (const bytes of byEnvironment?.values() ?? []) if (bytes > this.share) overShare = true;
    if (total <= this.budget && !overShare) {
      this.hooks.checked?.(total, 0);
      return;
    }
    this.shedOver();
  }

  /** Sheds the largest sockets of each environment over its share, then the largest over the whole budget. */
  private shedOver(): void {
    const members = [...this.members];
    const queued = members.map((member) => member.queued);
    const overShare =
      this.share < this.budget
        ? pickOverShares(
            queued,
            members.map((member) => member.environmentId ?? ''),
            this.share,
          )
        : [];
    // what is left after the shares is checked against the whole budget
    const left = queued.slice();
    for (const index of overShare) left[index] = 0;
    const picked = [...overShare, ...pickSheddable(left, this.budget)];
    for (const index of picked) {
      this.members.delete(members[index]!);
      members[index]!.shed();
    }
    this.hooks.checked?.(
      queued.reduce((sum, bytes) => sum + bytes, 0),
      picked.length,
    );
  }
}
