import { z } from 'zod';
import {
  DashboardBanPage,
  DashboardChannelMemberPage,
  DashboardChannelParams,
  DashboardChannelUserParams,
  DashboardEnvParams,
  DashboardEnvUserParams,
  DashboardUserPageQuery,
} from '../../dashboard.ts';
import { Ban, BanBody, Membership, PutMemberBody } from '../../members.ts';
import { CURRENT_READ, type Operations } from '../operation.ts';
import { CSRF_NOTE, MANAGE, common, csrfHeaders, readErrors, writeErrors } from './common.ts';

const KICKS = " The user's live sockets concerned are closed with 4403 on every gateway.";

/** Control plane: channel members and bans (per channel and environment-wide) of an environment. */
export const dashboardModerationOperations = {
  dashboardListChannelMembers: {
    method: 'GET',
    url: '/v1/dashboard/environments/:envId/channels/:channelId/members',
    schema: {
      ...common,
      operationId: 'dashboardListChannelMembers',
      summary: 'The members of a channel',
      description: "By user id; `limit` default 50, maximum 500; `after` is the previous page's `nextAfter`. Any member." + CURRENT_READ,
      params: DashboardChannelParams,
      querystring: DashboardUserPageQuery,
      response: { 200: DashboardChannelMemberPage, ...readErrors },
    },
  },
  dashboardPutChannelMember: {
    method: 'PUT',
    url: '/v1/dashboard/environments/:envId/channels/:channelId/members/:userId',
    schema: {
      ...common,
      operationId: 'dashboardPutChannelMember',
      summary: 'Add a channel member or change their role',
      description:
        'As PUT /v1/channels/{channelId}/members/{userId} with the secret key: an idempotent upsert, the role ' +
        'defaults to `member`; the channel need not exist yet.' +
        MANAGE +
        CSRF_NOTE,
      headers: csrfHeaders,
      params: DashboardChannelUserParams,
      body: PutMemberBody.optional(),
      response: { 200: Membership, ...writeErrors },
    },
  },
  dashboardRemoveChannelMember: {
    method: 'DELETE',
    url: '/v1/dashboard/environments/:envId/channels/:channelId/members/:userId',
    schema: {
      ...common,
      operationId: 'dashboardRemoveChannelMember',
      summary: 'Remove a channel member',
      description: '204 whether or not the user was a member.' + KICKS + MANAGE + CSRF_NOTE,
      headers: csrfHeaders,
      params: DashboardChannelUserParams,
      response: { 204: z.null().describe('Removed'), ...writeErrors },
    },
  },
} as const satisfies Operations;

/** Bans of one channel, and environment-wide ones: the same three operations each. */
function banOperations<Path extends string, ListParams extends z.ZodType, UserParams extends z.ZodType>(
  path: Path,
  what: string,
  name: string,
  listParams: ListParams,
  userParams: UserParams,
) {
  return {
    list: {
      method: 'GET',
      url: path,
      schema: {
        ...common,
        operationId: `dashboardList${name}Bans`,
        summary: `The live ${what} bans`,
        description: "Unexpired bans by user id; `limit` default 50, maximum 500; `after` is the previous page's `nextAfter`. Any member." + CURRENT_READ,
        params: listParams,
        querystring: DashboardUserPageQuery,
        response: { 200: DashboardBanPage, ...readErrors },
      },
    },
    put: {
      method: 'PUT',
      url: `${path}/:userId`,
      schema: {
        ...common,
        operationId: `dashboardPut${name}Ban`,
        summary: `Ban a user (${what})`,
        description:
          'An upsert: a second PUT replaces reason and expiry. `expiresAt` must be in the future; without it the ban ' +
          'lasts until lifted.' +
          KICKS +
          MANAGE +
          CSRF_NOTE,
        headers: csrfHeaders,
        params: userParams,
        body: BanBody.optional(),
        response: { 200: Ban, ...writeErrors },
      },
    },
    remove: {
      method: 'DELETE',
      url: `${path}/:userId`,
      schema: {
        ...common,
        operationId: `dashboardRemove${name}Ban`,
        summary: `Lift a ${what} ban`,
        description: '204 whether or not a ban existed.' + MANAGE + CSRF_NOTE,
        headers: csrfHeaders,
        params: userParams,
        response: { 204: z.null().describe('Lifted'), ...writeErrors },
      },
    },
  } as const satisfies Operations;
}

export const dashboardChannelBanOperations = banOperations(
  '/v1/dashboard/environments/:envId/channels/:channelId/bans',
  'channel',
  'Channel',
  DashboardChannelParams,
  DashboardChannelUserParams,
);
export const dashboardEnvironmentBanOperations = banOperations(
  '/v1/dashboard/environments/:envId/bans',
  'environment-wide',
  'Environment',
  DashboardEnvParams,
  DashboardEnvUserParams,
);
