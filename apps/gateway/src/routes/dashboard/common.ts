/**
 * What every dashboard route shares: its session hook and the conversion of domain views (dates)
 * to the JSON the schemas describe (the operations' tag, security and errors are in
 * libs/schemas/src/operations/dashboard/common.ts).
 */
import type { FastifyRequest } from 'fastify';
import { clientAddressKey } from '@rtm/limits';
import type {
  AuditRecord,
  EnvironmentView,
  InvitationView,
  KeyView,
  Membership,
  MemberView,
  OrganizationView,
  OriginView,
  ProjectView,
  Session,
} from '@rtm/accounts';
import type { GatewayDeps } from '../../deps.ts';
import { requireDashboardSession } from '../../dashboard/session-auth.ts';

/** Route options of a session route: its hook. */
export function sessionRoute(deps: GatewayDeps) {
  return { onRequest: requireDashboardSession(deps) };
}

const iso = (date: Date) => date.toISOString();
const isoOrNull = (date: Date | null) => (date ? date.toISOString() : null);

export const membershipJson = (m: Membership) => ({ id: m.id, name: m.name, role: m.role, createdAt: iso(m.createdAt) });

export const organizationJson = (o: OrganizationView) => ({ ...membershipJson(o), projectCount: o.projectCount, memberCount: o.memberCount });

export const memberJson = (m: MemberView) => ({ userId: m.userId, email: m.email, role: m.role, joinedAt: iso(m.joinedAt) });

export const invitationJson = (i: InvitationView) => ({
  id: i.id,
  role: i.role,
  email: i.email,
  status: i.status,
  createdAt: iso(i.createdAt),
  expiresAt: iso(i.expiresAt),
  createdBy: i.createdBy,
});

export const projectJson = (p: ProjectView) => ({
  id: p.id,
  organizationId: p.organizationId,
  name: p.name,
  environmentCount: p.environmentCount,
  createdAt: iso(p.createdAt),
});

export const environmentJson = (e: EnvironmentView) => ({
  id: e.id,
  organizationId: e.organizationId,
  projectId: e.projectId,
  name: e.name,
  activeKeyCount: e.activeKeyCount,
  originCount: e.originCount,
  createdAt: iso(e.createdAt),
});

export const keyJson = (k: KeyView) => ({
  id: k.id,
  environmentId: k.environmentId,
  kind: k.kind,
  prefix: k.prefix,
  createdAt: iso(k.createdAt),
  lastUsedAt: isoOrNull(k.lastUsedAt),
  revokedAt: isoOrNull(k.revokedAt),
});

export const originJson = (o: OriginView) => ({ origin: o.origin, createdAt: iso(o.createdAt) });

export const auditJson = (a: AuditRecord) => ({
  id: a.id,
  at: iso(a.at),
  actor: a.actor,
  action: a.action,
  target: a.target,
  details: a.details,
});

/** The answer of sign-in, of GET /v1/dashboard/session and of an accepted invitation. */
export async function sessionJson(deps: GatewayDeps, session: Session) {
  const organizations = await deps.dashboard.accounts.organizations.organizationsOf(session.userId);
  return {
    user: { id: session.userId, email: session.email, createdAt: iso(session.userCreatedAt) },
    organizations: organizations.map(membershipJson),
    csrfToken: session.csrfToken,
    expiresAt: iso(session.expiresAt),
    idleExpiresAt: iso(session.idleExpiresAt),
  };
}

/**
 * The client address sign-in throttling counts (the proxy's X-Forwarded-For when TRUST_PROXY says
 * so), keyed as every per-address limit keys it: an IPv6 client by its /64.
 */
export function clientAddress(request: FastifyRequest): string {
  return clientAddressKey(request.ip ?? 'unknown');
}
