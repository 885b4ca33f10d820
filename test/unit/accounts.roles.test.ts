import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LOGS_RIGHT, ROLES, allows, isLowerRole } from '@rtm/accounts';
import { dashboardUserOf, logsSubjectOf } from '../../apps/gateway/src/auth/logs-access.ts';

test('roles - a lower role is one with fewer rights; every role may read the live log today', () => {
  assert.equal(isLowerRole('viewer', 'admin'), true);
  assert.equal(isLowerRole('admin', 'owner'), true);
  assert.equal(isLowerRole('viewer', 'owner'), true);
  for (const role of ROLES) assert.equal(isLowerRole(role, role), false, `${role} is not lower than itself`);
  assert.equal(isLowerRole('owner', 'viewer'), false);
  // lower always means a subset of the rights: a change to a lower role never adds one
  for (const lower of ROLES) {
    for (const higher of ROLES) {
      if (!isLowerRole(lower, higher)) continue;
      for (const right of ['read', 'manage', 'administer'] as const) if (allows(lower, right)) assert.ok(allows(higher, right));
    }
  }
  for (const role of ROLES) assert.ok(allows(role, LOGS_RIGHT));
});

test("logs access - the subject of a member's logs token names the member; a key's names none", () => {
  assert.equal(logsSubjectOf('usr_01'), 'dashboard:usr_01');
  assert.equal(dashboardUserOf(logsSubjectOf('usr_01')), 'usr_01');
  assert.equal(dashboardUserOf('key:key_01'), null);
  assert.equal(dashboardUserOf('alice'), null);
});
