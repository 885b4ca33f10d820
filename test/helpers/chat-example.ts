import { spawn } from 'node:child_process';
import type { TestContext } from 'node:test';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * `npm run example:chat` as a newcomer runs it (examples/chat/server.ts, on any free port unless
 * `env` says otherwise), stopped in `t.after`: its URL and the line it printed on start.
 */
export async function startChatExample(t: TestContext, env: Record<string, string>): Promise<{ url: string; line: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/chat/server.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, CHAT_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  t.after(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  });
  const output: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => output.push(line));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the chat example did not start:\n${output.join('\n')}`)), 20_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      const url = line.match(/^chat example: (http:\/\/\S+)/)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ url, line });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the chat example exited (${code}):\n${output.join('\n')}`));
    });
  });
}
