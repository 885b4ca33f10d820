/**
 * Who may do what on a channel: the pure rules behind every route, socket and frame of the
 * realtime edge (docs/permissions.md). The gateway gathers the facts (the token's claims, the
 * channel's effective access, the user's membership and bans, the channel's namespace) and asks
 * `decide`; nothing here touches a database.
 */

/** What a capability may grant on a channel. */
export const CAPABILITY_OPS = ['subscribe', 'publish', 'history', 'presence', 'edit', 'react'] as const;
export type CapabilityOp = (typeof CAPABILITY_OPS)[number];

/** Capabilities as minted: channel pattern → operations. */
export type Capabilities = Record<string, CapabilityOp[]>;

/** At most this many patterns in one token. */
export const MAX_CAPABILITY_PATTERNS = 64;
/** At most this many bytes of the capability object, serialized as JSON. */
export const MAX_CAPABILITY_BYTES = 2048;

/** Channel id characters (as the interface's ChannelId). */
const CHANNEL_CHARS = /^[A-Za-z0-9_.:@=-]+$/;

/**
 * The `cap` claim: the same object with each operation list packed into a bit mask
 * (subscribe 1, publish 2, history 4, presence 8, edit 16, react 32), e.g. `{"room:*":3,"lobby":63}`.
 */
const BITS: Record<CapabilityOp, number> = { subscribe: 1, publish: 2, history: 4, presence: 8, edit: 16, react: 32 };
const ALL_BITS = 63;
export type CapabilityClaim = Record<string, number>;

/** Why a capability object is refused, or null when it is well formed. */
export function capabilitiesProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object of channel pattern to operations';
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_CAPABILITY_PATTERNS) return `at most ${MAX_CAPABILITY_PATTERNS} patterns`;
  if (Buffer.byteLength(JSON.stringify(value)) > MAX_CAPABILITY_BYTES) return `must be at most ${MAX_CAPABILITY_BYTES} bytes serialized`;
  for (const [pattern, ops] of entries) {
    const problem = patternProblem(pattern);
    if (problem) return `pattern ${JSON.stringify(pattern.slice(0, 140))}: ${problem}`;
    if (!Array.isArray(ops) || ops.length === 0) return `pattern ${JSON.stringify(pattern)}: must list at least one of ${CAPABILITY_OPS.join(', ')}`;
    for (const op of ops) {
      if (!(CAPABILITY_OPS as readonly unknown[]).includes(op)) {
        return `pattern ${JSON.stringify(pattern)}: unknown operation ${JSON.stringify(op)} (one of ${CAPABILITY_OPS.join(', ')})`;
      }
    }
  }
  return null;
}

/** A pattern is a channel id, a channel id prefix followed by `*`, or `*` alone. */
function patternProblem(pattern: string): string | null {
  const body = pattern.endsWith('*') ? pattern.slice(0, -1) : pattern;
  if (pattern.length === 0) return 'must not be empty';
  if (body.length > 128) return 'at most 128 characters before `*`';
  if (body.length > 0 && !CHANNEL_CHARS.test(body)) return 'a channel id (`[A-Za-z0-9_.:@=-]`), optionally ending in `*`';
  return null;
}

export function encodeCapabilities(capabilities: Capabilities): CapabilityClaim {
  const claim: CapabilityClaim = {};
  for (const [pattern, ops] of Object.entries(capabilities)) {
    claim[pattern] = ops.reduce((mask, op) => mask | BITS[op], 0);
  }
  return claim;
}

/** The claim read back; undefined when the token has none or it is malformed (a malformed one grants nothing). */
export function decodeCapabilities(claim: unknown): CapabilityClaim | undefined {
  if (claim === undefined) return undefined;
  const decoded: CapabilityClaim = {};
  if (typeof claim !== 'object' || claim === null || Array.isArray(claim)) return decoded;
  for (const [pattern, mask] of Object.entries(claim as Record<string, unknown>)) {
    if (typeof mask === 'number' && Number.isInteger(mask) && mask > 0 && mask <= ALL_BITS && patternProblem(pattern) === null) decoded[pattern] = mask;
  }
  return decoded;
}

export function matchesPattern(pattern: string, channelId: string): boolean {
  return pattern.endsWith('*') ? channelId.startsWith(pattern.slice(0, -1)) : channelId === pattern;
}

/**
 * Whether a token's capabilities grant `op` on the channel: a token without the claim has every
 * operation; otherwise the operations of every pattern the channel matches add up.
 */
export function capabilityAllows(claim: CapabilityClaim | undefined, channelId: string, op: CapabilityOp): boolean {
  if (claim === undefined) return true;
  for (const [pattern, mask] of Object.entries(claim)) {
    if ((mask & BITS[op]) !== 0 && matchesPattern(pattern, channelId)) return true;
  }
  return false;
}

/* ---------- namespaces ---------- */

export type ChannelAccessMode = 'open' | 'members';

export interface Namespace {
  prefix: string;
  access?: ChannelAccessMode;
  anonymous?: { subscribe?: boolean; publish?: boolean };
  history?: boolean;
  persist?: boolean;
  retentionDays?: number;
  maxContentBytes?: number;
  /** Track who is online in the namespace's channels (rosters' `online`, occupancy). */
  presence?: boolean;
  /** Send presence frames (joins and leaves) to the channels' subscribers. */
  joinLeave?: boolean;
  /** Subscribers may ask for delta-compressed messages (`delta: "fossil"`). */
  delta?: boolean;
  /** Send `presence.entered` / `presence.left` webhook events (to endpoints that name them). */
  presenceWebhooks?: boolean;
}

/** The environment's presence defaults (the deployed `channels.presence` / `channels.joinLeave`). */
export interface PresenceDefaults {
  presence?: boolean;
  joinLeave?: boolean;
}

/** Presence is tracked unless turned off; join/leave frames are sent only where turned on. */
export const PRESENCE_DEFAULT = true;
export const JOIN_LEAVE_DEFAULT = false;
/** Delta compression is allowed only in namespaces that turn it on. */
export const DELTA_DEFAULT = false;
/** Presence webhook events are sent only from the namespaces that turn them on. */
export const PRESENCE_WEBHOOKS_DEFAULT = false;

/** A namespace with every default filled in (the defaults are what a channel outside any namespace gets). */
export interface ResolvedNamespace {
  prefix: string | null;
  access: ChannelAccessMode | null;
  anonymousSubscribe: boolean;
  anonymousPublish: boolean;
  history: boolean;
  persist: boolean;
  retentionDays: number | null;
  maxContentBytes: number | null;
  presence: boolean;
  /** Only where `presence` is on: frames need the tracking. */
  joinLeave: boolean;
  /** Subscriptions may ask for delta-compressed messages (docs/protocol.md, "Delta compression"). */
  delta: boolean;
  /** Presence webhook events (`presence.entered`/`.left`); only where `presence` is on. Off by default. */
  presenceWebhooks: boolean;
}

export const NO_NAMESPACE: ResolvedNamespace = {
  prefix: null,
  access: null,
  anonymousSubscribe: true,
  anonymousPublish: true,
  history: true,
  persist: true,
  retentionDays: null,
  maxContentBytes: null,
  presence: PRESENCE_DEFAULT,
  joinLeave: JOIN_LEAVE_DEFAULT,
  delta: DELTA_DEFAULT,
  presenceWebhooks: PRESENCE_WEBHOOKS_DEFAULT,
};

export const MAX_NAMESPACES = 100;

/** Why a list of namespaces is refused (prefix format, duplicates), or null. */
export function namespacesProblem(namespaces: readonly Namespace[]): string | null {
  if (namespaces.length > MAX_NAMESPACES) return `namespaces: at most ${MAX_NAMESPACES}`;
  const seen = new Set<string>();
  for (const [index, namespace] of namespaces.entries()) {
    const { prefix } = namespace;
    if (prefix.length === 0 || prefix.length > 128 || !CHANNEL_CHARS.test(prefix)) {
      return `namespaces.${index}.prefix: 1-128 channel id characters (\`[A-Za-z0-9_.:@=-]\`), without \`*\``;
    }
    if (seen.has(prefix)) return `namespaces.${index}.prefix: ${JSON.stringify(prefix)} appears twice`;
    seen.add(prefix);
  }
  return null;
}

/**
 * The namespace of a channel: the longest prefix the channel id starts with; defaults when none.
 * Presence settings fall back to the environment's (`defaults`), then to PRESENCE_DEFAULT and
 * JOIN_LEAVE_DEFAULT.
 */
export function resolveNamespace(namespaces: readonly Namespace[] | undefined, channelId: string, defaults?: PresenceDefaults | null): ResolvedNamespace {
  let best: Namespace | undefined;
  for (const namespace of namespaces ?? []) {
    if (channelId.startsWith(namespace.prefix) && (!best || namespace.prefix.length > best.prefix.length)) best = namespace;
  }
  const presence = best?.presence ?? defaults?.presence ?? PRESENCE_DEFAULT;
  const joinLeave = presence && (best?.joinLeave ?? defaults?.joinLeave ?? JOIN_LEAVE_DEFAULT);
  if (!best) return presence === NO_NAMESPACE.presence && joinLeave === NO_NAMESPACE.joinLeave ? NO_NAMESPACE : { ...NO_NAMESPACE, presence, joinLeave };
  return {
    prefix: best.prefix,
    access: best.access ?? null,
    anonymousSubscribe: best.anonymous?.subscribe ?? true,
    anonymousPublish: best.anonymous?.publish ?? true,
    history: best.history ?? true,
    persist: best.persist ?? true,
    retentionDays: best.retentionDays ?? null,
    maxContentBytes: best.maxContentBytes ?? null,
    presence,
    joinLeave,
    delta: best.delta ?? DELTA_DEFAULT,
    presenceWebhooks: presence && (best.presenceWebhooks ?? PRESENCE_WEBHOOKS_DEFAULT),
  };
}

/** A channel's access: its own setting, else its namespace's, else the environment's default. */
export function effectiveAccess(own: ChannelAccessMode | null, namespace: ResolvedNamespace, environmentDefault: ChannelAccessMode): ChannelAccessMode {
  return own ?? namespace.access ?? environmentDefault;
}

/* ---------- the decision ---------- */

export const CHANNEL_ROLES = ['member', 'moderator', 'readonly'] as const;
export type ChannelRole = (typeof CHANNEL_ROLES)[number];

/**
 * What a user token may ask of a channel:
 * - subscribe: open a channel socket, `subscribe` on /v1/connect (live frames and the `since` replay);
 * - publish: publish, and retract one's own message;
 * - history: read history;
 * - presence: read the roster;
 * - edit: edit one's own message;
 * - react: add or remove one's reactions to a message;
 * - moderate: retract anyone's message, remove or ban a member of the channel.
 */
export const CHANNEL_OPS = ['subscribe', 'publish', 'history', 'presence', 'edit', 'react', 'moderate'] as const;
export type ChannelOp = (typeof CHANNEL_OPS)[number];

/** The facts a decision needs, gathered by the caller. */
export interface ChannelFacts {
  channelId: string;
  /** The token: anonymous or not, and its `cap` claim (undefined: no claim, every operation). */
  anonymous: boolean;
  capabilities: CapabilityClaim | undefined;
  /** The channel's effective access (effectiveAccess). */
  access: ChannelAccessMode;
  namespace: ResolvedNamespace;
  /** The user's membership of the channel, or null. */
  role: ChannelRole | null;
  /** A live ban of the user (on the channel or environment-wide), with its reason. */
  ban: { reason: string | null } | null;
}

export type Decision = { ok: true } | { ok: false; code: 'forbidden' | 'banned'; reason: string };

const refuse = (reason: string): Decision => ({ ok: false, code: 'forbidden', reason });

/** The capability an operation needs (moderating needs publish: it changes the channel). */
const CAPABILITY_OF: Record<ChannelOp, CapabilityOp> = {
  subscribe: 'subscribe',
  publish: 'publish',
  history: 'history',
  presence: 'presence',
  edit: 'edit',
  react: 'react',
  moderate: 'publish',
};

/**
 * The rule, in order: a ban refuses everything (`banned`); then the token's capabilities; then
 * access (a `members` channel admits only its members); then the namespace (anonymous tokens,
 * `history: false`); then the role (`readonly` does not publish or edit, but may react; only a
 * `moderator` moderates).
 */
export function decide(facts: ChannelFacts, op: ChannelOp): Decision {
  if (facts.ban) return { ok: false, code: 'banned', reason: facts.ban.reason ?? 'banned from this channel' };
  const needed = CAPABILITY_OF[op];
  if (!capabilityAllows(facts.capabilities, facts.channelId, needed)) {
    return refuse(`the token's capabilities do not grant ${needed} on this channel`);
  }
  if (facts.access === 'members' && facts.role === null) return refuse('not a member of this channel');
  const { namespace } = facts;
  if (facts.anonymous) {
    const writes = op === 'publish' || op === 'moderate' || op === 'edit' || op === 'react';
    // a reaction is a write to a message one must be able to read: both rules apply
    const reads = !writes || op === 'react';
    if (writes && !namespace.anonymousPublish) return refuse(`anonymous tokens may not publish in namespace ${JSON.stringify(namespace.prefix)}`);
    if (reads && !namespace.anonymousSubscribe) return refuse(`anonymous tokens may not read namespace ${JSON.stringify(namespace.prefix)}`);
  }
  if (op === 'history' && !namespace.history) return refuse(`history is disabled in namespace ${JSON.stringify(namespace.prefix)}`);
  if ((op === 'publish' || op === 'edit') && facts.role === 'readonly') return refuse(`the readonly role may not ${op}`);
  if (op === 'moderate' && facts.role !== 'moderator') return refuse('only a moderator of this channel may do this');
  return { ok: true };
}
