/**
 * A benchmark's baseline server runs in a child process of the benchmark's own file (started with
 * a `--serve…` argument), so it has a core's worth of event loop to itself as the service does.
 * The child prints one `listening` line with its port; the parent waits for it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';

/** In the child: tells the parent the port it listens on. */
export function announceListening(address: AddressInfo | string | null): void {
  process.stdout.write(`${JSON.stringify({ msg: 'listening', port: typeof address === 'object' && address ? address.port : 0 })}\n`);
}

/**
 * Starts `node <nodeArgs>` and resolves with its port once it has announced it. Its standard
 * error goes to ours, or line by line to `onStderr` when given.
 */
export async function spawnListening(name: string, nodeArgs: string[], onStderr?: (line: string) => void): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, nodeArgs, { stdio: ['ignore', 'pipe', onStderr ? 'pipe' : 'inherit'] });
  if (onStderr) createInterface({ input: child.stderr! }).on('line', onStderr);
  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('{"msg":"listening"')) resolve((JSON.parse(line) as { port: number }).port);
    });
    child.once('exit', (code) => reject(new Error(`${name} exited ${code}`)));
  });
  return { port, child };
}
