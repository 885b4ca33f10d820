/**
 * Roles in an organization and what each may do. Every dashboard route names the right it
 * needs; a member without it gets 403 `forbidden`, a non-member 404 `not_found` (the
 * organization is not theirs to know about).
 */
export const ROLES = ['owner', 'admin', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/**
 * - `read`: see the organization, its members, projects, environments, keys (never a key
 *   itself), origins, audit log, and everything later views show;
 * - `manage`: create, rename and delete projects and environments, create and revoke keys,
 *   add and remove allowed origins, and the environments' other settings (webhooks, messages);
 * - `administer`: invite, change roles, remove members, revoke invitations.
 */
export const RIGHTS = ['read', 'manage', 'administer'] as const;
export type Right = (typeof RIGHTS)[number];

const GRANTS: Record<Role, readonly Right[]> = {
  owner: ['read', 'manage', 'administer'],
  admin: ['read', 'manage'],
  viewer: ['read'],
};

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  owner: 'everything an admin may do, and invite people, change roles and remove members',
  admin: 'manage projects, environments, API keys, allowed origins and webhooks',
  viewer: 'read everything, change nothing',
};

/** What the environment's live log needs: minting a logs token and keeping its sockets open. */
export const LOGS_RIGHT: Right = 'read';

/** Roles from least to most: a change to a lower one takes something away. */
const RANK: Record<Role, number> = { viewer: 0, admin: 1, owner: 2 };

export function isLowerRole(role: Role, than: Role): boolean {
  return RANK[role] < RANK[than];
}

export function allows(role: Role, right: Right): boolean {
  return GRANTS[role].includes(right);
}

export function rightsOf(role: Role): readonly Right[] {
  return GRANTS[role];
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
