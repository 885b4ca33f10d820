import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { TestContext } from 'node:test';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

/**
 * The system Chromium (Debian's `chromium`, installed by `npm test`'s set-up), or the binary
 * CHROMIUM_PATH names. playwright-core drives it over CDP and never downloads a browser.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Flags for a quiet, reproducible headless run: no sandbox (tests may run as root, where
 * Chromium's sandbox refuses to start), no GPU, no QUIC, and none of the background traffic a
 * fresh profile would make (first-run pages, component updates, sync, safe-browsing lists), so the
 * only network a page makes is the one the test asks for.
 */
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface BrowserSession {
  browser: Browser;
  /** Console messages of type `error` and uncaught page errors, of every page, as text. */
  errors: string[];
  /** Every console line of every page (`[page n] type: text`), for failure reports. */
  console: string[];
  /**
   * A page in a context of its own: pages of different contexts share no storage, cookies or
   * cache, as two users on two machines. `options` set up its context (e.g. `viewport`).
   */
  newPage(options?: BrowserContextOptions): Promise<Page>;
  /** Fails naming every console error and page error collected so far. */
  assertNoErrors(): void;
}

/**
 * Launches headless Chromium for one test and closes it (and every page) in `t.after`. The
 * profile is a fresh user-data directory that playwright makes for this launch and deletes on
 * close, so no state carries over between tests.
 */
export async function launchBrowser(t: TestContext): Promise<BrowserSession> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`no Chromium at ${CHROMIUM_PATH}: run \`npm test\` (it installs Debian's chromium) or set CHROMIUM_PATH`);
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ARGS });
  const contexts: BrowserContext[] = [];
  t.after(async () => {
    await Promise.allSettled(contexts.map((context) => context.close()));
    await browser.close();
  });
  const errors: string[] = [];
  const consoleLines: string[] = [];
  let pages = 0;
  return {
    browser,
    errors,
    console: consoleLines,
    async newPage(options) {
      const context = await browser.newContext(options);
      contexts.push(context);
      const page = await context.newPage();
      const n = ++pages;
      page.on('console', (message) => {
        const line = `[page ${n}] ${message.type()}: ${message.text()}`;
        consoleLines.push(line);
        if (message.type() === 'error') errors.push(line);
      });
      page.on('pageerror', (error) => errors.push(`[page ${n}] uncaught: ${error.stack ?? error.message}`));
      return page;
    },
    assertNoErrors() {
      if (errors.length > 0) throw new Error(`the page logged errors:\n${errors.join('\n')}`);
    },
  };
}

/**
 * Serves one HTML document at `/` on 127.0.0.1 (and 204 for `/favicon.ico`, so the browser logs
 * no 404 for it), closed in `t.after`: a page of its own origin, as an application's would be.
 */
export async function serveHtml(t: TestContext, html: string): Promise<string> {
  const server = createServer((req, res) => {
    if (req.url === '/' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    } else if (req.url === '/favicon.ico') {
      res.writeHead(204).end();
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as { port: number };
  return `http://127.0.0.1:${port}/`;
}
