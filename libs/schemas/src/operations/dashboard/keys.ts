import { z } from 'zod';
import {
  DashboardCreateKeyBody,
  DashboardCreatedKey,
  DashboardEnvParams,
  DashboardKey,
  DashboardKeyList,
  DashboardKeyParams,
  DashboardOrigin,
  DashboardOriginBody,
  DashboardOriginList,
  DashboardOriginQuery,
} from '../../dashboard.ts';
import type { Operations } from '../operation.ts';
import { CSRF_NOTE, MANAGE, common, csrfHeaders, readErrors, writeErrors } from './common.ts';

/** Control plane: an environment's API keys and allowed origins. */
export const dashboardKeyOperations = {
  dashboardListKeys: {
    method: 'GET',
    url: '/v1/dashboard/environments/:envId/keys',
    schema: {
      ...common,
      operationId: 'dashboardListKeys',
      summary: 'The API keys of an environment',
      description:
        'Revoked keys too, newest first, with their prefix, kind, creation, last use (recorded at most once a ' +
        'minute per gateway) and revocation; never the key itself. Any member.',
      params: DashboardEnvParams,
      response: { 200: DashboardKeyList, ...readErrors },
    },
  },
  dashboardCreateKey: {
    method: 'POST',
    url: '/v1/dashboard/environments/:envId/keys',
    schema: {
      ...common,
      operationId: 'dashboardCreateKey',
      summary: 'Create an API key',
      description: 'The answer is the only time the key is shown: only its hash is stored.' + MANAGE + CSRF_NOTE,
      headers: csrfHeaders,
      params: DashboardEnvParams,
      body: DashboardCreateKeyBody,
      response: { 201: DashboardCreatedKey, ...writeErrors },
    },
  },
  dashboardRevokeKey: {
    method: 'POST',
    url: '/v1/dashboard/environments/:envId/keys/:keyId/revoke',
    schema: {
      ...common,
      operationId: 'dashboardRevokeKey',
      summary: 'Revoke an API key',
      description:
        'Every gateway refuses the key at once (401 on the public routes); revoking a revoked key answers it ' +
        'unchanged. Takes no body.' +
        MANAGE +
        CSRF_NOTE,
      headers: csrfHeaders,
      params: DashboardKeyParams,
      response: { 200: DashboardKey, ...writeErrors },
    },
  },
  dashboardListOrigins: {
    method: 'GET',
    url: '/v1/dashboard/environments/:envId/origins',
    schema: {
      ...common,
      operationId: 'dashboardListOrigins',
      summary: 'The allowed origins of an environment',
      description: "Browsers from these origins may use the environment's publishable keys; with none, any origin may. Any member.",
      params: DashboardEnvParams,
      response: { 200: DashboardOriginList, ...readErrors },
    },
  },
  dashboardAddOrigin: {
    method: 'POST',
    url: '/v1/dashboard/environments/:envId/origins',
    schema: {
      ...common,
      operationId: 'dashboardAddOrigin',
      summary: 'Allow an origin',
      description:
        'Stored normalised as `scheme://host[:port]` (lowercase, default port dropped); a path, query, user name or ' +
        'a scheme other than http(s): 400. Adding one already there answers it (200 instead of 201). Every gateway ' +
        'applies the change at once.' +
        MANAGE +
        CSRF_NOTE,
      headers: csrfHeaders,
      params: DashboardEnvParams,
      body: DashboardOriginBody,
      response: { 200: DashboardOrigin, 201: DashboardOrigin, ...writeErrors },
    },
  },
  dashboardRemoveOrigin: {
    method: 'DELETE',
    url: '/v1/dashboard/environments/:envId/origins',
    schema: {
      ...common,
      operationId: 'dashboardRemoveOrigin',
      summary: 'Remove an allowed origin',
      description:
        '`?origin=` names it (compared normalised). 204 whether or not it was there. Every gateway applies the ' + 'change at once.' + MANAGE + CSRF_NOTE,
      headers: csrfHeaders,
      params: DashboardEnvParams,
      querystring: DashboardOriginQuery,
      response: { 204: z.null().describe('Removed'), ...writeErrors },
    },
  },
} as const satisfies Operations;
