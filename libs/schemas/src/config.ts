import { z } from 'zod';
import { IsoTime } from './common.ts';
import { ChannelAccess } from './members.ts';

export const DeployConfigBody = z
  .object({
    webhooks: z
      .object({ url: z.string().min(1).max(2048).describe('Receiving endpoint; validated before anything is stored.') })
      .strict()
      .nullable()
      .optional()
      .describe('Null or omitted disables delivery.'),
    channels: z
      .object({ access: ChannelAccess.describe('Access of channels that have no access of their own.') })
      .strict()
      .optional()
      .describe('Omitted: `{access: "open"}`.'),
  })
  .strict()
  .meta({
    id: 'DeployConfig',
    description:
      'A whole configuration: a deploy replaces the active one (omitted parts take their defaults: no webhook, open channels).',
  });

export const ActiveConfig = z
  .object({
    webhooks: z.object({ url: z.string() }).nullable(),
    channels: z.object({ access: ChannelAccess }),
  })
  .meta({ id: 'Config' });

export const ConfigDeployment = z
  .object({
    deploymentId: z.string().nullable().describe('Null before the first deploy.'),
    activatedAt: IsoTime.nullable(),
    config: ActiveConfig,
  })
  .meta({ id: 'ConfigDeployment' });
