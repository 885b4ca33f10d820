import { ErrorBody } from '../common.ts';
import { ConfigDeployment, DeployConfigBody, PatchConfigBody } from '../config.ts';
import type { Operations } from './operation.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody, 503: ErrorBody };

/**
 * Control plane: `PUT /v1/config` (deploy and activate a whole configuration), `PATCH /v1/config`
 * (merge into the active one) and `GET /v1/config` (the active one).
 */
export const configOperations = {
  deployConfig: {
    method: 'PUT',
    url: '/v1/config',
    schema: {
      operationId: 'deployConfig',
      summary: 'Deploy a configuration',
      description:
        'Validates, stores a deployment and activates it, in one transaction. The body is the whole configuration: ' +
        'an omitted or null `webhooks` disables delivery, omitted `channels` means `{access: "open"}`. The webhook ' +
        'URL is checked before anything is stored (422 `invalid_webhook_url`, the reason names the rule): WHATWG ' +
        'parsing first; `localhost`, `127.0.0.1`, `[::1]` (written so) allowed with http or https only where the ' +
        'operator allows loopback (development; refused by default); every other ' +
        'loopback, private, link-local, unique-local, unspecified, IPv4-embedding IPv6, `.internal` or `.localhost` ' +
        'host refused; other hosts need https; no userinfo. The URL is stored in its WHATWG-normalised form. The ' +
        "first activation with a webhook creates the environment's `whsec_` signing secret; later deploys keep it. " +
        'Deliveries already recorded keep the URL they were created with. A deploy that takes access away (e.g. ' +
        '`channels.access` becomes `members`) closes the live sockets that lost it on every gateway with 4403. ' +
        "`limits` overrides the environment's rate limits and socket quotas (docs/limits.md); omitted limits take " +
        'their defaults, and every gateway applies the new limits at once. The answer shows every limit in force. ' +
        '`namespaces` give channels by id prefix their own access, anonymous rights, history, persistence, retention and ' +
        'content size (the longest matching prefix applies; docs/permissions.md); every gateway applies them at once, and ' +
        'sockets that lose read access are closed with 4403. A bad prefix or a prefix given twice is 400 `invalid_request`. ' +
        'To change one part and keep the rest, use `PATCH /v1/config`.',
      tags: ['config'],
      security: [{ secretKey: [] }],
      body: DeployConfigBody,
      response: { 200: ConfigDeployment, 422: ErrorBody, ...errors },
    },
  },
  patchConfig: {
    method: 'PATCH',
    url: '/v1/config',
    schema: {
      operationId: 'patchConfig',
      summary: 'Change part of the configuration',
      description:
        'Merges the body into the active configuration as a JSON Merge Patch (RFC 7396) and deploys the result as a new ' +
        'deployment, exactly as `PUT /v1/config` would deploy it (same validation, same errors, same effects on live ' +
        'sockets and limits). Objects merge member by member (`channels`, `limits`, `webhooks`); `null` removes a ' +
        'setting, which then takes its default (`webhooks: null` disables delivery, `limits: {"socketsPerUser": null}` ' +
        'takes that one limit back to its default, `limits: null` all of them); an array (`namespaces`) is replaced ' +
        'whole; an omitted field is unchanged; `channels.access` can be changed but not removed. `{}` deploys the active ' +
        'configuration again. Before the first deploy the patch applies to the defaults. Concurrent changes of one ' +
        "environment's configuration (PATCH, PUT) take turns: each PATCH merges into the configuration the previous " +
        'change activated, so none is lost. The body is `application/json`.',
      tags: ['config'],
      security: [{ secretKey: [] }],
      body: PatchConfigBody,
      response: { 200: ConfigDeployment, 422: ErrorBody, ...errors },
    },
  },
  getConfig: {
    method: 'GET',
    url: '/v1/config',
    schema: {
      operationId: 'getConfig',
      summary: 'The active configuration',
      description: 'Before the first deploy: `deploymentId` and `activatedAt` are null and the defaults are shown.',
      tags: ['config'],
      security: [{ secretKey: [] }],
      response: { 200: ConfigDeployment, ...errors },
    },
  },
} as const satisfies Operations;
