import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  CONFIDENCES,
  evaluate,
  findSuppressions,
  isGated,
  MIN_REASON_LENGTH,
  parseJustifications,
  report,
  SEVERITIES,
  toFinding,
  type Confidence,
  type Finding,
  type Severity,
} from '../../../scripts/electronegativity-findings.mjs'

const REASON =
  'The preload is sandboxed and context-isolated and exposes only the IPC contract channels; main validates each call.'

function finding(check: string, file: string, severity: Severity, confidence: Confidence): Finding {
  return { check, file, severity, confidence, line: 1, column: 0, description: 'd', url: 'u' }
}

describe('which Electronegativity findings fail the build', () => {
  it('gates every HIGH, and MEDIUM only at FIRM or CERTAIN confidence', () => {
    const gated = SEVERITIES.flatMap((severity) =>
      CONFIDENCES.filter((confidence) => isGated({ severity, confidence })).map((c) => `${severity}/${c}`),
    )
    expect(gated.sort()).toEqual([
      'HIGH/CERTAIN',
      'HIGH/FIRM',
      'HIGH/TENTATIVE',
      'MEDIUM/CERTAIN',
      'MEDIUM/FIRM',
    ])
  })

  it('fails unjustified gated findings, passes justified ones, and lists the rest', () => {
    const sandbox = finding('SANDBOX_JS_CHECK', 'src/main/shell/window.ts', 'MEDIUM', 'FIRM')
    const isolation = finding('CONTEXT_ISOLATION_JS_CHECK', 'src/main/shell/window.ts', 'HIGH', 'TENTATIVE')
    const preload = finding('PRELOAD_JS_CHECK', 'src/main/shell/window.ts', 'MEDIUM', 'FIRM')
    const openExternal = finding('OPEN_EXTERNAL_JS_CHECK', 'src/main/shell/index.ts', 'MEDIUM', 'TENTATIVE')
    const csp = finding('CSP_GLOBAL_CHECK', 'src/main/shell/window.ts', 'LOW', 'CERTAIN')
    const entry = { check: 'PRELOAD_JS_CHECK', file: 'src/main/shell/window.ts', reason: REASON }

    const result = evaluate([sandbox, isolation, preload, openExternal, csp], [entry])
    expect(result.failures).toEqual([sandbox, isolation])
    expect(result.justified).toEqual([{ finding: preload, entry }])
    expect(result.other).toEqual([openExternal, csp])
    expect(result.stale).toEqual([])
    expect(report(result).ok).toBe(false)
    expect(report(evaluate([preload, openExternal], [entry])).ok).toBe(true)
  })

  it('justifies a finding only for the same check in the same file', () => {
    const inIndex = finding('PRELOAD_JS_CHECK', 'src/main/shell/index.ts', 'MEDIUM', 'FIRM')
    const entry = { check: 'PRELOAD_JS_CHECK', file: 'src/main/shell/window.ts', reason: REASON }
    const otherCheck = { check: 'SANDBOX_JS_CHECK', file: 'src/main/shell/index.ts', reason: REASON }
    const result = evaluate([inIndex], [entry, otherCheck])
    expect(result.failures).toEqual([inIndex])
    expect(result.stale).toEqual([entry, otherCheck])
  })

  it('fails on stale justifications, including one that only matches a finding below the gate', () => {
    const tentative = finding('OPEN_EXTERNAL_JS_CHECK', 'src/main/shell/index.ts', 'MEDIUM', 'TENTATIVE')
    const entry = { check: 'OPEN_EXTERNAL_JS_CHECK', file: 'src/main/shell/index.ts', reason: REASON }
    const result = evaluate([tentative], [entry])
    expect(result.failures).toEqual([])
    expect(result.stale).toEqual([entry])
    const { ok, lines } = report(result)
    expect(ok).toBe(false)
    expect(lines.join('\n')).toContain(
      'STALE electronegativity.config.json excuses OPEN_EXTERNAL_JS_CHECK in src/main/shell/index.ts',
    )
  })

  it('fails on any other problem (a parse error, a bad config) even with no findings', () => {
    const empty = evaluate([], [])
    expect(report(empty).ok).toBe(true)
    const { ok, lines } = report(empty, ['Electronegativity could not parse src/x.ts'])
    expect(ok).toBe(false)
    expect(lines).toEqual(['ERROR Electronegativity could not parse src/x.ts'])
  })
})

describe('reading the tool’s issues', () => {
  const toolIssue = {
    id: 'SANDBOX_JS_CHECK',
    file: '/repo/src/main/shell/window.ts',
    location: { line: 19, column: 17 },
    severity: { value: 2, name: 'MEDIUM' },
    confidence: { value: 1, name: 'FIRM' },
    description: 'Use sandbox for untrusted origins',
    shortenedURL: 'https://git.io/JeuM2',
    manualReview: false,
  }

  it('keeps check, severity, confidence and a repository-relative path', () => {
    expect(toFinding(toolIssue, (path) => path.replace('/repo/', ''))).toEqual({
      check: 'SANDBOX_JS_CHECK',
      severity: 'MEDIUM',
      confidence: 'FIRM',
      file: 'src/main/shell/window.ts',
      line: 19,
      column: 17,
      description: 'Use sandbox for untrusted origins',
      url: 'https://git.io/JeuM2',
    })
    expect(
      toFinding({ ...toolIssue, file: 'C:\\repo\\src\\main\\shell\\window.ts' }, (p) => p.slice(8)).file,
    ).toBe('src/main/shell/window.ts')
    expect(toFinding({ ...toolIssue, file: 'N/A' }, () => 'never').file).toBe('N/A')
  })

  it('refuses an issue whose severity or confidence it does not know, rather than letting it pass', () => {
    expect(() => toFinding({ ...toolIssue, severity: { name: 'CRITICAL' } }, (p) => p)).toThrow(/cannot read/)
    expect(() => toFinding({ ...toolIssue, confidence: undefined }, (p) => p)).toThrow(/cannot read/)
    expect(() => toFinding(null, (p) => p)).toThrow(/cannot read/)
  })
})

describe('the justification file', () => {
  it('accepts { check, file, reason } entries with a real reason', () => {
    const entry = { check: 'PRELOAD_JS_CHECK', file: 'src/main/shell/window.ts', reason: REASON }
    expect(parseJustifications([entry])).toEqual({ entries: [entry], problems: [] })
    expect(parseJustifications([])).toEqual({ entries: [], problems: [] })
  })

  it('refuses anything else, naming every problem', () => {
    expect(parseJustifications({}).problems).toHaveLength(1)
    const { problems } = parseJustifications([
      'PRELOAD_JS_CHECK',
      { check: 'PRELOAD_JS_CHECK', file: 'src/main/shell/window.ts', reason: REASON, line: 49 },
      { check: 'preload', file: 'src/main/shell/window.ts', reason: REASON },
      { check: 'PRELOAD_JS_CHECK', file: '/abs/src/main/shell/window.ts', reason: REASON },
      { check: 'PRELOAD_JS_CHECK', file: 'src\\main\\window.ts', reason: REASON },
      { check: 'PRELOAD_JS_CHECK', file: '../elsewhere/window.ts', reason: REASON },
      { check: 'PRELOAD_JS_CHECK', file: 'src/main/shell/index.ts', reason: 'false positive' },
      {
        check: 'PRELOAD_JS_CHECK',
        file: 'src/main/app.ts',
        reason: `TODO: explain later. ${'x'.repeat(80)}`,
      },
      { check: 'SANDBOX_JS_CHECK', file: 'src/main/shell/window.ts' },
      { check: 'PRELOAD_JS_CHECK', file: 'src/main/shell/window.ts', reason: REASON },
    ])
    expect(problems).toEqual([
      'entry 1: must be an object { check, file, reason }',
      'entry 2: unknown key(s) line',
      expect.stringMatching(/^entry 3: "check" must be/),
      expect.stringMatching(/^entry 4: "file" must be/),
      expect.stringMatching(/^entry 5: "file" must be/),
      expect.stringMatching(/^entry 6: "file" must be/),
      expect.stringMatching(new RegExp(`^entry 7: "reason" .*at least ${MIN_REASON_LENGTH} characters`)),
      expect.stringMatching(/^entry 8: "reason"/),
      expect.stringMatching(/^entry 9: "reason"/),
      'entry 10: PRELOAD_JS_CHECK in src/main/shell/window.ts is justified twice',
    ])
  })

  it('the checked-in electronegativity.config.json is well formed', () => {
    const config: unknown = JSON.parse(
      readFileSync(resolve(__dirname, '../../../electronegativity.config.json'), 'utf8'),
    )
    expect(parseJustifications(config).problems).toEqual([])
  })
})

describe('Electronegativity’s own suppression comments', () => {
  it('are found in JavaScript, TypeScript and HTML comments so the gate can refuse them', () => {
    const source = [
      'const a = 1 // eng-disable SANDBOX_JS_CHECK',
      '/* eng-disable CONTEXT_ISOLATION_JS_CHECK */',
      '<!-- eng-disable CSP_HTML_CHECK -->',
      "const text = 'we never eng-disable anything'",
      'const b = 2',
    ].join('\n')
    expect(findSuppressions('src/x.ts', source)).toEqual([
      'src/x.ts:1: const a = 1 // eng-disable SANDBOX_JS_CHECK',
      'src/x.ts:2: /* eng-disable CONTEXT_ISOLATION_JS_CHECK */',
      'src/x.ts:3: <!-- eng-disable CSP_HTML_CHECK -->',
    ])
  })
})
