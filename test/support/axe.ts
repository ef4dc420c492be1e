import { mkdirSync, readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * axe-core's serious and critical violations on the page once its transitions have ended (a
 * button fading in reads as too faint). The engine is evaluated through the DevTools protocol,
 * which the page's Content-Security-Policy does not govern, so a page with `script-src` locked
 * down is checked as it is served; once per document. `within`: only what a selector of the page
 * holds (the rest is checked with the pages it belongs to).
 */
export async function seriousAxeViolations(page: Page, within?: string): Promise<AxeViolation[]> {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (include) => {
    const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }> } }).axe;
    // Only the violations are read: the other result types keep one node each, sparing axe the
    // selectors of all their nodes (its documented `resultTypes`, which leaves violations whole).
    const result = await axe.run(include ? { include: [include] } : document, { resultTypes: ['violations'] });
    return result.violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes: nodes.map((node) => ({ target: node.target })) }));
  }, within);
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

/**
 * Screenshots of the page at a desktop's and a phone's width (1280 and 390 px), saved for a person
 * to look at: under /tmp, or the folder `SCREENSHOT_DIR` names (one run's pictures apart from another's).
 */
export async function screenshotAtBothWidths(page: Page, name: string): Promise<string[]> {
  const files: string[] = [];
  const folder = process.env.SCREENSHOT_DIR ?? '/tmp';
  mkdirSync(folder, { recursive: true });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    const file = `${folder}/screenshot-${name}-${width}.png`;
    await page.screenshot({ path: file, fullPage: true });
    files.push(file);
  }
  return files;
}

/**
 * A page as a person at each width sees it: screenshots (screenshotAtBothWidths), then at 1280
 * and 390 px nothing wider than the page and no serious axe-core violation (as one expectation,
 * which names the page and the width); the page is left at 1280 px.
 */
export async function expectPageAtBothWidths(page: Page, name: string): Promise<void> {
  for (const file of await screenshotAtBothWidths(page, name)) expect(file).toMatch(/\.png$/);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect({ name, width, sideways, violations: await seriousAxeViolations(page) }).toEqual({ name, width, sideways: 0, violations: [] });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}
