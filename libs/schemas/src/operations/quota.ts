import { ErrorBody } from '../common.ts';
import { DashboardEnvParams } from '../dashboard.ts';
import { QuotaResponse } from '../quota.ts';
import type { Operations } from './operation.ts';
import { common, readErrors } from './dashboard/common.ts';

const DESCRIPTION =
  "The environment's monthly quotas (`limits.monthlyMessages`, `limits.monthlyConnectionMinutes`) and what it used of " +
  'them in this calendar month (UTC), counted whether or not a limit is set. Messages are exact; connection-minutes lag ' +
  'by at most QUOTA_FLUSH_MS (docs/quotas.md).';

/** `GET /v1/quota` (control plane, secret key). */
export const quotaOperations = {
  getQuota: {
    method: 'GET',
    url: '/v1/quota',
    schema: {
      operationId: 'getQuota',
      summary: 'Monthly quotas and usage',
      description: DESCRIPTION,
      tags: ['config'],
      security: [{ secretKey: [] }],
      response: { 200: QuotaResponse, 401: ErrorBody, 403: ErrorBody, 503: ErrorBody },
    },
  },
} as const satisfies Operations;

/** The dashboard's twin, for one environment (any member). */
export const dashboardQuotaOperations = {
  dashboardGetQuota: {
    method: 'GET',
    url: '/v1/dashboard/environments/:envId/quota',
    schema: {
      ...common,
      operationId: 'dashboardGetQuota',
      summary: 'Monthly quotas and usage of an environment',
      description: `${DESCRIPTION} Any member.`,
      params: DashboardEnvParams,
      response: { 200: QuotaResponse, ...readErrors },
    },
  },
} as const satisfies Operations;
