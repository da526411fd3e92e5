/** Checks the Chromium tests run on any state of the page: axe-core's serious violations, sideways scrolling. */
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Runs axe-core in the page (through the DevTools protocol, so the page's CSP does not apply) on WCAG 2.x A/AA rules. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(ctx: Document, opts: unknown): Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    // resultTypes: only violations are collected in full (passes would be listed node by node: 1,000 concordance rows).
    return axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
  });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} (${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(', ')})`,
    );
}

export const sideways = (page: Page) =>
  page.evaluate(() => {
    const root = document.documentElement;
    const wide = [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > root.clientWidth + 0.5)
      .slice(0, 5)
      .map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className}`);
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, wide: wide.join(' ') };
  });
