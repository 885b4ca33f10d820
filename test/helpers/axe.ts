import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { AxeResults, ImpactValue, Result } from 'axe-core';

/**
 * axe-core's browser build, read once. It is run in the page with `page.evaluate`, which the
 * DevTools protocol does not submit to the page's Content-Security-Policy: the pages keep their
 * real, strict policy (an inline `<script>`, as `page.addScriptTag` adds, would be refused by
 * the dashboard's `script-src 'self'`), so a CSP error the page itself causes is still caught.
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const FAILING: ImpactValue[] = ['serious', 'critical'];

/** The violations of one axe-core run over the whole page as it is now (every rule axe runs by default). */
export async function axeViolations(page: Page): Promise<Result[]> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(AXE_SOURCE);
  const results = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] })`)) as AxeResults;
  return results.violations;
}

/** One line per violation and one per element it names: impact, rule, what it means, where, why. */
export function describeViolations(violations: Result[]): string {
  return violations
    .map((violation) =>
      [
        `${violation.impact} ${violation.id}: ${violation.help}`,
        ...violation.nodes.map((node) => `    ${node.target.join(' ')}: ${(node.failureSummary ?? '').replace(/\s*\n\s*/g, ' ')}`),
      ].join('\n'),
    )
    .join('\n');
}

/**
 * Fails when axe-core finds a serious or critical violation on the page as it is now, printing
 * every one of them (rule, elements, and axe's summary, e.g. the colours and the contrast ratio).
 * `where` names the page in the message.
 */
export async function expectNoSeriousAxeViolations(page: Page, where: string): Promise<void> {
  const failing = (await axeViolations(page)).filter((violation) => FAILING.includes(violation.impact ?? null));
  if (failing.length > 0)
    throw new Error(`axe-core: ${failing.length} serious or critical violation(s) on ${where} (${page.url()}):\n${describeViolations(failing)}`);
}
