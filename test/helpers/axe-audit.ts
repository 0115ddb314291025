import { readFileSync } from 'node:fs'
import type { Page } from 'playwright-core'
import type { AxeResults, Result, RunOptions } from 'axe-core'

/** WCAG 2.0 and 2.1, levels A and AA, and Deque's best practices (landmarks, one h1, regions…). */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] as const

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')

/**
 * Puts axe-core into the page. The harness serves the production CSP (`script-src 'self'`), which refuses the
 * inline <script> that `page.addScriptTag({ path })` writes; evaluating the source over the DevTools protocol is
 * not subject to the page's CSP, so the app is audited under the policy it ships with, nothing relaxed.
 */
async function ensureAxe(page: Page): Promise<void> {
  // Page code is passed as source text: this project type-checks without the DOM's types.
  const present = await page.evaluate<boolean>("typeof window.axe === 'object'")
  if (!present) await page.evaluate(AXE_SOURCE)
}

/** One violation as a line a reader can act on: rule, impact, each offending element and what to fix. */
export interface AxeViolation {
  readonly id: string
  readonly impact: string
  readonly help: string
  readonly nodes: ReadonlyArray<{ readonly target: string; readonly summary: string }>
}

/**
 * Runs axe over the whole document and returns its violations of any impact: every rule of `AXE_TAGS`, or only
 * the rules named (a second theme changes colours, nothing else, so it needs only `color-contrast` again).
 */
export async function auditPage(page: Page, rules?: readonly string[]): Promise<AxeViolation[]> {
  await ensureAxe(page)
  const options: RunOptions = {
    runOnly:
      rules === undefined ? { type: 'tag', values: [...AXE_TAGS] } : { type: 'rule', values: [...rules] },
    resultTypes: ['violations'],
  }
  const results = await page.evaluate<AxeResults>(`window.axe.run(document, ${JSON.stringify(options)})`)
  return results.violations.map((violation: Result) => ({
    id: violation.id,
    impact: violation.impact ?? 'unknown',
    help: violation.help,
    nodes: violation.nodes.map((node) => ({
      target: node.target.map(String).join(' '),
      summary: node.failureSummary ?? '',
    })),
  }))
}

/** The violations as text for a failing assertion's message. */
export function describeViolations(violations: readonly AxeViolation[]): string {
  return violations
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help}\n` +
        violation.nodes
          .map((node) => `  ${node.target}\n    ${node.summary.replace(/\n/g, '\n    ')}`)
          .join('\n'),
    )
    .join('\n')
}

/** The themes every screen is audited in: dark for its colours only (its layout is the light theme's). */
const AUDIT_THEMES = [
  { theme: 'light', rules: undefined },
  { theme: 'dark', rules: ['color-contrast'] },
] as const

/**
 * Audits what `page` shows now in both themes, each painted before its contrast is measured and screenshotted
 * (`screenshot(theme)`, which writes only when screenshots are wanted), then goes back to light. Answers one text
 * per theme with violations ("<label>, dark theme: …"), none when both pass.
 */
export async function auditBothThemes(
  page: Page,
  label: string,
  screenshot: (theme: 'light' | 'dark') => Promise<unknown>,
): Promise<string[]> {
  const failures: string[] = []
  for (const { theme, rules } of AUDIT_THEMES) {
    await page.emulateMedia({ colorScheme: theme })
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)))')
    await screenshot(theme)
    const violations = await auditPage(page, rules)
    if (violations.length > 0) failures.push(`${label}, ${theme} theme:\n${describeViolations(violations)}`)
  }
  await page.emulateMedia({ colorScheme: 'light' })
  return failures
}
