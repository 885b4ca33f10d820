import { api } from '../api.ts';
import type { PageContext } from '../router.ts';
import { canManage } from './organization.ts';
import { environmentHeader, roleIn } from './environment-nav.ts';
import { bansCard } from './channel.ts';

/** /dashboard/environments/:envId/bans: environment-wide bans (a channel's own are on its view). */
export async function bansPage({ params, session }: PageContext): Promise<Node[]> {
  const env = await api.environment(params.envId!);
  const bans = bansCard(env.id, null, canManage(roleIn(session, env)));
  await bans.ready;
  return [...environmentHeader(env, '/bans', 'Bans'), bans.element];
}
