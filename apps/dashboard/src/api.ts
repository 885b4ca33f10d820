import type { StatsEntry, StatsUnit } from './usage-series.ts';

/**
 * The dashboard API (/v1/dashboard/… on the same origin): the session cookie goes along by itself,
 * the CSRF token is added to every change. Errors arrive as `{code, reason}` and are thrown as
 * ApiError, which the forms show next to themselves; a 401 on any route means the session ended,
 * and `onSignedOut` shows the sign-in form.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly reason: string;
  constructor(status: number, code: string, reason: string) {
    super(`${code}: ${reason}`);
    this.status = status;
    this.code = code;
    this.reason = reason;
  }
}

export type Role = 'owner' | 'admin' | 'viewer';
export interface Membership {
  id: string;
  name: string;
  role: Role;
  createdAt: string;
}
export interface Session {
  user: { id: string; email: string; createdAt: string };
  organizations: Membership[];
  csrfToken: string;
  expiresAt: string;
  idleExpiresAt: string;
}
export interface Organization {
  id: string;
  name: string;
  role: Role;
  projectCount: number;
  memberCount: number;
  createdAt: string;
}
export interface Member {
  userId: string;
  email: string;
  role: Role;
  joinedAt: string;
}
export interface Invitation {
  id: string;
  role: Role;
  email: string | null;
  status: string;
  createdAt: string;
  expiresAt: string;
  createdBy: string | null;
}
export interface CreatedInvitation extends Invitation {
  token: string;
  link: string;
}
export interface InvitationPreview {
  organization: { id: string; name: string };
  role: Role;
  email: string | null;
  expiresAt: string;
}
export interface Project {
  id: string;
  organizationId: string;
  name: string;
  environmentCount: number;
  createdAt: string;
}
export interface Environment {
  id: string;
  organizationId: string;
  projectId: string;
  name: string;
  activeKeyCount: number;
  originCount: number;
  createdAt: string;
}
export interface Key {
  id: string;
  environmentId: string;
  kind: 'secret' | 'publishable';
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}
export interface CreatedKey extends Key {
  key: string;
}
export interface Origin {
  origin: string;
  createdAt: string;
}
export interface AuditEntry {
  id: string;
  at: string;
  actor: { kind: string; id: string | null; email: string | null };
  action: string;
  target: { type: string; id: string | null };
  details: Record<string, unknown>;
}
export interface List<T> {
  data: T[];
}
export interface Channel {
  channelId: string;
  messageCount: number;
  lastSeq: number;
  lastActivityAt: string | null;
  createdAt: string;
}
export interface Message {
  id: string;
  seq: number;
  type: string;
  kind: 'user' | 'server' | 'system';
  content: Record<string, unknown> | null;
  sender: { id: string; anon: boolean };
  timestamp: number;
  to?: string[];
  mentions?: string[];
  retracted: boolean;
  ephemeral: boolean;
  channelId: string;
  retractedAt: string | null;
}
export interface MessageFilters {
  sender?: string;
  type?: string;
  since?: string;
  until?: string;
  before?: number;
}
export type ChannelRole = 'member' | 'moderator' | 'readonly';
export interface ChannelMember {
  channelId: string;
  userId: string;
  role: ChannelRole;
  createdAt: string;
  updatedAt: string;
}
export interface Ban {
  userId: string;
  channelId: string | null;
  reason: string | null;
  expiresAt: string | null;
  createdAt: string;
}
export interface Webhook {
  url: string | null;
  deploymentId: string | null;
  activatedAt: string | null;
  secretConfigured: boolean;
}
export type DeliveryStatus = 'pending' | 'delivered' | 'dropped' | 'cancelled';
export interface Delivery {
  id: string;
  eventId: string;
  eventType: string;
  endpointId: string | null;
  channelId?: string;
  url: string;
  status: DeliveryStatus;
  attempts: number;
  lastError?: string;
  lastStatusCode?: number;
  nextAttemptAt?: string;
  createdAt: string;
  updatedAt: string;
  deliveredAt?: string;
}
export interface DeliveryDetail extends Delivery {
  attemptLog: { at: string; statusCode?: number; error?: string; durationMs: number }[];
}
export interface Endpoint {
  id: string;
  url: string;
  description: string;
  eventTypes: string[] | null;
  channels: string[] | null;
  disabled: boolean;
  disabledReason?: 'manual' | 'failing';
  disabledAt?: string;
  rateLimitPerSecond: number | null;
  failingSince?: string;
  createdAt: string;
  updatedAt: string;
}
export interface EndpointInput {
  url?: string;
  description?: string;
  eventTypes?: string[] | null;
  channels?: string[] | null;
  disabled?: boolean;
  rateLimitPerSecond?: number | null;
}
/** `optIn`: sent only to endpoints that name it (none checked does not take it). */
export interface EventTypeInfo {
  name: string;
  description: string;
  optIn: boolean;
}
export interface WebhookTask {
  id: string;
  kind: 'recover';
  endpointId: string;
  since: string;
  until: string | null;
  status: 'running' | 'completed' | 'failed';
  recovered: number;
  error?: string;
  createdAt: string;
  finishedAt?: string;
}
/** A delivery ledger's filter: its status, and its endpoint (`ep_…`, or `default` for the configuration's URL). */
export interface DeliveryFilter {
  status?: DeliveryStatus;
  endpointId?: string;
}
export interface LogsToken {
  token: string;
  expiresAt: string;
  socketUrl: string | null;
}
/** One monthly quota: `limit` null when unlimited. */
export interface QuotaItem {
  limit: number | null;
  used: number;
  remaining: number | null;
}
export interface Quota {
  period: { start: string; resetsAt: string };
  quotas: { messages: QuotaItem; connectionMinutes: QuotaItem };
}

let csrfToken: string | undefined;
let signedOut: () => void = () => {};

export function onSignedOut(handler: () => void): void {
  signedOut = handler;
}

export function setSession(session: Session | undefined): void {
  csrfToken = session?.csrfToken;
}

/** `path` under /v1/dashboard, or absolute (`/v1/…`) for the few session routes outside it. */
export async function call<T>(method: string, path: string, body?: unknown, options: { quiet401?: boolean } = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(path.startsWith('/v1/') ? path : `/v1/dashboard${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
  } catch {
    throw new ApiError(0, 'unavailable', 'the server could not be reached; try again');
  }
  if (response.status === 204) return undefined as T;
  let answer: unknown;
  try {
    answer = await response.json();
  } catch {
    answer = undefined;
  }
  if (!response.ok) {
    const error = answer as { code?: unknown; reason?: unknown } | undefined;
    const failure = new ApiError(
      response.status,
      typeof error?.code === 'string' ? error.code : 'error',
      typeof error?.reason === 'string' ? error.reason : `the server answered ${response.status}`,
    );
    if (response.status === 401 && !options.quiet401) {
      csrfToken = undefined;
      signedOut();
    }
    throw failure;
  }
  return answer as T;
}

const enc = encodeURIComponent;

/** `?a=1&b=2` of the defined values ('' when none). */
function query(values: Record<string, string | number | undefined>): string {
  const parts = Object.entries(values)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined && entry[1] !== '')
    .map(([name, value]) => `${name}=${enc(String(value))}`);
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

const banPath = (envId: string, channelId: string | null) =>
  channelId === null ? `/environments/${enc(envId)}/bans` : `/environments/${enc(envId)}/channels/${enc(channelId)}/bans`;

const endpointsPath = (envId: string) => `/environments/${enc(envId)}/webhook-endpoints`;

export const api = {
  session: () => call<Session>('GET', '/session', undefined, { quiet401: true }),
  signIn: (email: string, password: string) => call<Session>('POST', '/session', { email, password }, { quiet401: true }),
  signOut: () => call<void>('DELETE', '/session', undefined, { quiet401: true }),

  organization: (orgId: string) => call<Organization>('GET', `/organizations/${enc(orgId)}`),
  members: (orgId: string) => call<List<Member>>('GET', `/organizations/${enc(orgId)}/members`),
  setRole: (orgId: string, userId: string, role: Role) => call<Member>('PUT', `/organizations/${enc(orgId)}/members/${enc(userId)}`, { role }),
  removeMember: (orgId: string, userId: string) => call<void>('DELETE', `/organizations/${enc(orgId)}/members/${enc(userId)}`),
  invitations: (orgId: string) => call<List<Invitation>>('GET', `/organizations/${enc(orgId)}/invitations`),
  invite: (orgId: string, role: Role, email?: string) =>
    call<CreatedInvitation>('POST', `/organizations/${enc(orgId)}/invitations`, { role, ...(email && { email }) }),
  revokeInvitation: (orgId: string, id: string) => call<Invitation>('DELETE', `/organizations/${enc(orgId)}/invitations/${enc(id)}`),
  previewInvitation: (token: string) => call<InvitationPreview>('GET', `/invitations/${enc(token)}`, undefined, { quiet401: true }),
  acceptInvitation: (token: string, body: { email?: string; password: string; code?: string }) =>
    call<Session>('POST', `/invitations/${enc(token)}/accept`, body, { quiet401: true }),
  requestVerification: (email: string) => call<{ status: 'requested' }>('POST', '/email-verifications', { email }, { quiet401: true }),
  requestPasswordReset: (email: string) => call<{ status: 'requested' }>('POST', '/password-resets', { email }, { quiet401: true }),
  confirmPasswordReset: (body: { email: string; code: string; password: string }) => call<void>('POST', '/password-resets/confirm', body, { quiet401: true }),

  projects: (orgId: string) => call<List<Project>>('GET', `/organizations/${enc(orgId)}/projects`),
  createProject: (orgId: string, name: string) => call<Project>('POST', `/organizations/${enc(orgId)}/projects`, { name }),
  project: (projectId: string) => call<Project>('GET', `/projects/${enc(projectId)}`),
  renameProject: (projectId: string, name: string) => call<Project>('PATCH', `/projects/${enc(projectId)}`, { name }),
  deleteProject: (projectId: string) => call<void>('DELETE', `/projects/${enc(projectId)}`),

  environments: (projectId: string) => call<List<Environment>>('GET', `/projects/${enc(projectId)}/environments`),
  createEnvironment: (projectId: string, name: string) => call<Environment>('POST', `/projects/${enc(projectId)}/environments`, { name }),
  environment: (envId: string) => call<Environment>('GET', `/environments/${enc(envId)}`),
  renameEnvironment: (envId: string, name: string) => call<Environment>('PATCH', `/environments/${enc(envId)}`, { name }),
  deleteEnvironment: (envId: string, confirm: string) => call<void>('DELETE', `/environments/${enc(envId)}`, { confirm }),

  keys: (envId: string) => call<List<Key>>('GET', `/environments/${enc(envId)}/keys`),
  createKey: (envId: string, kind: Key['kind']) => call<CreatedKey>('POST', `/environments/${enc(envId)}/keys`, { kind }),
  revokeKey: (envId: string, keyId: string) => call<Key>('POST', `/environments/${enc(envId)}/keys/${enc(keyId)}/revoke`),
  origins: (envId: string) => call<List<Origin>>('GET', `/environments/${enc(envId)}/origins`),
  addOrigin: (envId: string, origin: string) => call<Origin>('POST', `/environments/${enc(envId)}/origins`, { origin }),
  removeOrigin: (envId: string, origin: string) => call<void>('DELETE', `/environments/${enc(envId)}/origins?origin=${enc(origin)}`),

  channels: (envId: string, cursor?: string) =>
    call<{ data: Channel[]; nextCursor: string | null }>('GET', `/environments/${enc(envId)}/channels${query({ cursor })}`),
  messages: (envId: string, channelId: string, filters: MessageFilters = {}) =>
    call<{ data: Message[]; nextBefore: number | null }>('GET', `/environments/${enc(envId)}/channels/${enc(channelId)}/messages${query({ ...filters })}`),
  message: (envId: string, channelId: string, messageId: string) =>
    call<Message>('GET', `/environments/${enc(envId)}/channels/${enc(channelId)}/messages/${enc(messageId)}`),
  retract: (envId: string, channelId: string, messageId: string, reason: string) =>
    call<Message>('POST', `/environments/${enc(envId)}/channels/${enc(channelId)}/messages/${enc(messageId)}/retract`, { reason }),

  channelMembers: (envId: string, channelId: string, after?: string) =>
    call<{ data: ChannelMember[]; nextAfter: string | null }>('GET', `/environments/${enc(envId)}/channels/${enc(channelId)}/members${query({ after })}`),
  putChannelMember: (envId: string, channelId: string, userId: string, role: ChannelRole) =>
    call<ChannelMember>('PUT', `/environments/${enc(envId)}/channels/${enc(channelId)}/members/${enc(userId)}`, { role }),
  removeChannelMember: (envId: string, channelId: string, userId: string) =>
    call<void>('DELETE', `/environments/${enc(envId)}/channels/${enc(channelId)}/members/${enc(userId)}`),
  /** `channelId` null: the environment-wide bans. */
  bans: (envId: string, channelId: string | null, after?: string) =>
    call<{ data: Ban[]; nextAfter: string | null }>('GET', `${banPath(envId, channelId)}${query({ after })}`),
  ban: (envId: string, channelId: string | null, userId: string, body: { reason?: string; expiresAt?: string }) =>
    call<Ban>('PUT', `${banPath(envId, channelId)}/${enc(userId)}`, body),
  liftBan: (envId: string, channelId: string | null, userId: string) => call<void>('DELETE', `${banPath(envId, channelId)}/${enc(userId)}`),

  webhook: (envId: string) => call<Webhook>('GET', `/environments/${enc(envId)}/webhook`),
  deployWebhook: (envId: string, url: string | null) => call<Webhook>('PUT', `/environments/${enc(envId)}/webhook`, { url }),
  revealSecret: (envId: string) => call<{ secret: string }>('GET', `/environments/${enc(envId)}/webhook/secret`),
  rotateSecret: (envId: string) => call<{ secret: string }>('POST', `/environments/${enc(envId)}/webhook/secret/rotate`),
  deliveries: (envId: string, filter: DeliveryFilter = {}, cursor?: string) =>
    call<{ data: Delivery[]; nextCursor: string | null }>('GET', `/environments/${enc(envId)}/webhook/deliveries${query({ ...filter, cursor })}`),
  delivery: (envId: string, deliveryId: string) => call<DeliveryDetail>('GET', `/environments/${enc(envId)}/webhook/deliveries/${enc(deliveryId)}`),
  retryDelivery: (envId: string, deliveryId: string) => call<Delivery>('POST', `/environments/${enc(envId)}/webhook/deliveries/${enc(deliveryId)}/retry`),

  eventTypes: (envId: string) => call<List<EventTypeInfo>>('GET', `/environments/${enc(envId)}/webhook-event-types`),
  endpoints: (envId: string, cursor?: string) => call<{ data: Endpoint[]; nextCursor: string | null }>('GET', `${endpointsPath(envId)}${query({ cursor })}`),
  createEndpoint: (envId: string, body: EndpointInput & { url: string }) => call<Endpoint & { secret: string }>('POST', endpointsPath(envId), body),
  endpoint: (envId: string, endpointId: string) => call<Endpoint>('GET', `${endpointsPath(envId)}/${enc(endpointId)}`),
  updateEndpoint: (envId: string, endpointId: string, body: EndpointInput) => call<Endpoint>('PATCH', `${endpointsPath(envId)}/${enc(endpointId)}`, body),
  deleteEndpoint: (envId: string, endpointId: string) => call<void>('DELETE', `${endpointsPath(envId)}/${enc(endpointId)}`),
  revealEndpointSecret: (envId: string, endpointId: string) => call<{ secret: string }>('GET', `${endpointsPath(envId)}/${enc(endpointId)}/secret`),
  rotateEndpointSecret: (envId: string, endpointId: string) => call<{ secret: string }>('POST', `${endpointsPath(envId)}/${enc(endpointId)}/secret/rotate`),
  testEndpoint: (envId: string, endpointId: string, eventType?: string) =>
    call<{ eventType: string; deliveryId: string }>('POST', `${endpointsPath(envId)}/${enc(endpointId)}/test`, eventType ? { eventType } : {}),
  recoverEndpoint: (envId: string, endpointId: string, window: { since: string; until?: string }) =>
    call<{ taskId: string }>('POST', `${endpointsPath(envId)}/${enc(endpointId)}/recover`, window),
  webhookTask: (envId: string, taskId: string) => call<WebhookTask>('GET', `/environments/${enc(envId)}/webhook-tasks/${enc(taskId)}`),

  stats: (envId: string, q: { unit: StatsUnit; start: string; end: string; limit: number; direction: 'forwards' | 'backwards' }) =>
    call<List<StatsEntry>>('GET', `/environments/${enc(envId)}/stats${query(q)}`),
  quota: (envId: string) => call<Quota>('GET', `/environments/${enc(envId)}/quota`),

  logsToken: (envId: string) => call<LogsToken>('POST', `/v1/environments/${enc(envId)}/logs-token`),

  audit: (orgId: string, cursor?: string) =>
    call<{ data: AuditEntry[]; nextCursor: string | null }>('GET', `/organizations/${enc(orgId)}/audit?limit=50${cursor ? `&cursor=${enc(cursor)}` : ''}`),
};
