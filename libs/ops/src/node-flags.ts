/**
 * The `node` options each process runs with, before `--import tsx <entry>`: `npm start`
 * (scripts/start.ts) and the tests (test/helpers/cluster.ts) take them from here; the files in
 * deploy/ write the same flags out (test/deploy.files.test.ts checks each command line).
 *
 * The channel-node runs with a 64 MB young-generation semi-space (V8's default is 16 MB). A
 * group commit allocates a batch's frames, statement parameters and replies, which mostly die
 * within the batch; in a small new space they survive a scavenge or two first and are copied.
 * On 2 cores it raised batch publish by ~12 % and cut the channel-node's CPU per message from 25
 * to 20 µs (docs/benchmarks.md, "Publish"). The price is up to ~100 MB more resident memory per
 * channel-node under load, which a process holding no sockets can afford. The gateway keeps the
 * default: its memory is per connection, and the flag gained it only 1–2 µs per message.
 */
export type ProcessKind = 'gateway' | 'channel-node' | 'dispatcher';

export const NODE_FLAGS: Readonly<Record<ProcessKind, readonly string[]>> = {
  gateway: [],
  'channel-node': ['--max-semi-space-size=64'],
  dispatcher: [],
};
