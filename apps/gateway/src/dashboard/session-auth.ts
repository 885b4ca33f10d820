/**
 * Dashboard sessions on requests: the cookie, and `requireDashboardSession`, the `onRequest`
 * hook of every session route. The session id travels only in the cookie
 * `dashboard_session` (`HttpOnly; SameSite=Lax; Path=/`, `Secure` when the request came over
 * https, as the trusted proxy reports it with TRUST_PROXY). On a state-changing method the hook
 * also requires the session's CSRF token in `x-csrf-token` (the Origin check runs before it, for
 * every dashboard route: see Dashboard.install).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '@rtm/errors';
import { csrfTokenMatches, servedOrigin, type Actor, type Session } from '@rtm/accounts';
import type { GatewayDeps } from '../deps.ts';

export const SESSION_COOKIE = 'dashboard_session';
export const CSRF_HEADER = 'x-csrf-token';
export const DASHBOARD_PREFIX = '/v1/dashboard/';
export const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user of a route behind requireDashboardSession. */
    dashboard?: Session & { token: string };
  }
}

/** The value of one cookie from a `Cookie` header (the first, when repeated). */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    return value;
  }
  return undefined;
}

export function isHttps(request: FastifyRequest): boolean {
  return request.protocol === 'https';
}

/** The origin the request was made to (scheme from TLS or a trusted proxy, host from Host). */
export function requestOrigin(request: FastifyRequest): string | null {
  return servedOrigin(request.protocol, request.host);
}

function cookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export function setSessionCookie(reply: FastifyReply, request: FastifyRequest, token: string, expiresAt: Date): void {
  const maxAge = Math.max(1, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  reply.header('set-cookie', cookie(token, maxAge, isHttps(request)));
}

export function clearSessionCookie(reply: FastifyReply, request: FastifyRequest): void {
  reply.header('set-cookie', cookie('', 0, isHttps(request)));
}

export function sessionToken(request: FastifyRequest): string | undefined {
  return readCookie(request.headers.cookie, SESSION_COOKIE);
}

/** 401 without a live session; on POST, PUT, PATCH and DELETE, 403 without its CSRF token. */
export const requireDashboardSession = (deps: Pick<GatewayDeps, 'dashboard'>) => async (request: FastifyRequest) => {
  const token = sessionToken(request);
  if (!token) throw new ServiceError('unauthorized', 'sign in first (POST /v1/dashboard/session)');
  const session = await deps.dashboard.sessions.find(token);
  if (!session) throw new ServiceError('unauthorized', 'the session has expired or was signed out; sign in again');
  if (UNSAFE_METHODS.has(request.method)) {
    const presented = request.headers[CSRF_HEADER];
    if (!csrfTokenMatches(token, typeof presented === 'string' ? presented : undefined)) {
      throw new ServiceError('forbidden', `missing or wrong ${CSRF_HEADER} (the csrfToken of GET /v1/dashboard/session)`);
    }
  }
  request.dashboard = { ...session, token };
};

/** The signed-in user of a route behind requireDashboardSession, as the actor of domain operations. */
export function dashboardActor(request: FastifyRequest): Actor & { kind: 'user' } {
  const session = request.dashboard;
  if (!session) throw new Error('route is not behind requireDashboardSession');
  return { kind: 'user', userId: session.userId, email: session.email };
}
