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
export interface Membership { id: string; name: string; role: Role; createdAt: string }
export interface Session { user: { id: string; email: string; createdAt: string }; organizations: Membership[]; csrfToken: string; expiresAt: string; idleExpiresAt: string }
export interface Organization { id: string; name: string; role: Role; projectCount: number; memberCount: number; createdAt: string }
export interface Member { userId: string; email: string; role: Role; joinedAt: string }
export interface Invitation { id: string; role: Role; email: string | null; status: string; createdAt: string; expiresAt: string; createdBy: string | null }
export interface CreatedInvitation extends Invitation { token: string; link: string }
export interface InvitationPreview { organization: { id: string; name: string }; role: Role; email: string | null; expiresAt: string }
export interface Project { id: string; organizationId: string; name: string; environmentCount: number; createdAt: string }
export interface Environment { id: string; organizationId: string; projectId: string; name: string; activeKeyCount: number; originCount: number; createdAt: string }
export interface Key { id: string; environmentId: string; kind: 'secret' | 'publishable'; prefix: string; createdAt: string; lastUsedAt: string | null; revokedAt: string | null }
export interface CreatedKey extends Key { key: string }
export interface Origin { origin: string; createdAt: string }
export interface AuditEntry { id: string; at: string; actor: { kind: string; id: string | null; email: string | null }; action: string; target: { type: string; id: string | null }; details: Record<string, unknown> }
export interface List<T> { data: T[] }

let csrfToken: string | undefined;
let signedOut: () => void = () => {};

export function onSignedOut(handler: () => void): void {
  signedOut = handler;
}

export function setSession(session: Session | undefined): void {
  csrfToken = session?.csrfToken;
}

export async function call<T>(method: string, path: string, body?: unknown, options: { quiet401?: boolean } = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(`/v1/dashboard${path}`, {
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

export const api = {
  session: () => call<Session>('GET', '/session', undefined, { quiet401: true }),
  signIn: (email: string, password: string) => call<Session>('POST', '/session', { email, password }, { quiet401: true }),
  signOut: () => call<void>('DELETE', '/session', undefined, { quiet401: true }),

  organization: (orgId: string) => call<Organization>('GET', `/organizations/${enc(orgId)}`),
  members: (orgId: string) => call<List<Member>>('GET', `/organizations/${enc(orgId)}/members`),
  setRole: (orgId: string, userId: string, role: Role) => call<Member>('PUT', `/organizations/${enc(orgId)}/members/${enc(userId)}`, { role }),
  removeMember: (orgId: string, userId: string) => call<void>('DELETE', `/organizations/${enc(orgId)}/members/${enc(userId)}`),
  invitations: (orgId: string) => call<List<Invitation>>('GET', `/organizations/${enc(orgId)}/invitations`),
  invite: (orgId: string, role: Role, email?: string) => call<CreatedInvitation>('POST', `/organizations/${enc(orgId)}/invitations`, { role, ...(email && { email }) }),
  revokeInvitation: (orgId: string, id: string) => call<Invitation>('DELETE', `/organizations/${enc(orgId)}/invitations/${enc(id)}`),
  previewInvitation: (token: string) => call<InvitationPreview>('GET', `/invitations/${enc(token)}`, undefined, { quiet401: true }),
  acceptInvitation: (token: string, body: { email?: string; password: string }) => call<Session>('POST', `/invitations/${enc(token)}/accept`, body, { quiet401: true }),

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

  audit: (orgId: string, cursor?: string) =>
    call<{ data: AuditEntry[]; nextCursor: string | null }>('GET', `/organizations/${enc(orgId)}/audit?limit=50${cursor ? `&cursor=${enc(cursor)}` : ''}`),
};
