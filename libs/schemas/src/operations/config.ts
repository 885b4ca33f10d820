import { ErrorBody } from '../common.ts';
import { ConfigDeployment, DeployConfigBody } from '../config.ts';
import { type Operations } from './operation.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody, 503: ErrorBody };

/** Control plane: `PUT /v1/config` (deploy and activate) and `GET /v1/config` (the active one). */
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
        'first activation with a webhook creates the environment\'s `whsec_` signing secret; later deploys keep it. ' +
        'Deliveries already recorded keep the URL they were created with. A deploy that takes access away (e.g. ' +
        '`channels.access` becomes `members`) closes the live sockets that lost it on every gateway with 4403. ' +
        '`limits` overrides the environment\'s rate limits and socket quotas (docs/limits.md); omitted limits take ' +
        'their defaults, and every gateway applies the new limits at once. The answer shows every limit in force. ' +
        '`namespaces` give channels by id prefix their own access, anonymous rights, history, persistence, retention and ' +
        'content size (the longest matching prefix applies; docs/permissions.md); every gateway applies them at once, and ' +
        'sockets that lose read access are closed with 4403. A bad prefix or a prefix given twice is 400 `invalid_request`.',
      tags: ['config'],
      security: [{ secretKey: [] }],
      body: DeployConfigBody,
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
