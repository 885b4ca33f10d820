/**
 * `npm run gateway|channel-node|dispatcher`: one process of that kind, in this process, with the
 * development defaults `npm start` gives its children (scripts/dev-env.ts), so a process started
 * by hand joins a development cluster on equal terms. In production start
 * `apps/<kind>/src/main.ts` directly, with the deployment's own variables.
 */
import { developmentEnv } from './dev-env.ts';

const KINDS = ['gateway', 'channel-node', 'dispatcher'];
const kind = process.argv[2] ?? '';
if (!KINDS.includes(kind)) {
  process.stderr.write(`usage: tsx scripts/run.ts ${KINDS.join('|')}\n`);
  process.exit(64);
}
Object.assign(process.env, await developmentEnv(process.env));
await import(`../apps/${kind}/src/main.ts`);
