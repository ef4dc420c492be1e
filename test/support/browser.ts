import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Debian's Chromium, headless. Under CI=true a missing browser is a failure; elsewhere the
 * browser tests are skipped with a message naming the install command.
 */
export function browserAvailable(): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  if (process.env.CI === 'true') throw new Error(`Chromium is missing at ${CHROMIUM_PATH}: apt-get install chromium`);
  console.warn(`Skipping browser tests: no Chromium at ${CHROMIUM_PATH}. Install it with: apt-get install chromium`);
  return false;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** The WCAG 2.2 A and AA rules of axe-core. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * What axe-core, run in the page (or only `within` a selector of it) on its WCAG 2.2 A and AA
 * rules, finds serious or critical: each rule's id and its nodes' selectors. The page's own
 * Content-Security-Policy refuses the injected script unless its context was made with
 * `bypassCSP: true`.
 */
export async function seriousAccessibilityProblems(page: Page, within?: string): Promise<{ id: string; targets: string[] }[]> {
  await page.addScriptTag({ path: require.resolve('axe-core') });
  const violations = await page.evaluate(
    async ({ tags, include }) => {
      const axe = (window as unknown as { axe: { run(context: unknown, options: object): Promise<{ violations: { id: string; impact?: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
      return (await axe.run(include ? { include: [include] } : document, { runOnly: { type: 'tag', values: tags } })).violations;
    },
    { tags: WCAG_TAGS, include: within },
  );
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({ id: violation.id, targets: violation.nodes.map((node) => node.target.join(' ')) }));
}
