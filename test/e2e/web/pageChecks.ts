/** Checks any page of the app can be put through: accessibility (axe-core) and whether it fits its width. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

/** axe-core's browser build, injected into the page under test (the page's CSP does not apply to evaluate). */
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: readonly { readonly target: readonly string[] }[];
}

/** The serious and critical accessibility violations axe finds on the page as it is now. */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run(document)).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** How far the page, or its main column, scrolls sideways (0 when everything fits). */
export function sidewaysOverflow(page: Page): Promise<{ page: number; main: number }> {
  return page.evaluate(() => {
    const root = document.scrollingElement as Element;
    const main = document.querySelector('.main') as Element;
    return { page: root.scrollWidth - root.clientWidth, main: main.scrollWidth - main.clientWidth };
  });
}
