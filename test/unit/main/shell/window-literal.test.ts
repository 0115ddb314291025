import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import {
  printWebPreferences,
  secureWebPreferences,
} from '../../../../src/main/shell/window-and-startup/window-security'

/**
 * `src/main/shell/window.ts` spells the web preferences out at `new BrowserWindow(...)` because Electronegativity and
 * reviewers read that literal object, not what a function returns. This test reads the same literal with the
 * TypeScript compiler and holds it to `secureWebPreferences()`, the checked specification: same keys, same values.
 */

const WINDOW_SOURCE = resolve(__dirname, '../../../../src/main/shell/window.ts')
const PRINT_WINDOW_SOURCE = resolve(__dirname, '../../../../src/main/shell/adapters/print-window.ts')
/** The print window's one expression: the partition constant, exported by window-security.ts. */
const PRINT_EXPRESSION_KEYS = new Set(['partition'])
/**
 * The keys whose values main computes: the preload's path, and the renderer's extra command line (the test hooks'
 * switch in a test build only, window-and-startup/test-hooks.ts; no security setting).
 */
const EXPRESSION_KEYS = new Set(['preload', 'additionalArguments'])

type LiteralValue = string | number | boolean | null

interface WrittenPreferences {
  readonly literals: Record<string, LiteralValue>
  readonly expressions: Record<string, string>
}

/** Every `new BrowserWindow(...)` in the source, with its `webPreferences` object read property by property. */
function readWebPreferences(sourceText: string): WrittenPreferences[] {
  const source = ts.createSourceFile('window.ts', sourceText, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const found: WrittenPreferences[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isNewExpression(node) && node.expression.getText(source) === 'BrowserWindow') {
      found.push(readWindowOptions(node, source))
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

function readWindowOptions(node: ts.NewExpression, source: ts.SourceFile): WrittenPreferences {
  const [options] = node.arguments ?? []
  if (!options || !ts.isObjectLiteralExpression(options)) {
    throw new Error('new BrowserWindow(...) must be given an object literal')
  }
  const webPreferences = options.properties.filter(
    (property) => property.name !== undefined && propertyName(property.name, source) === 'webPreferences',
  )
  if (webPreferences.length !== 1) throw new Error('the options must name webPreferences exactly once')
  const [property] = webPreferences
  if (
    !property ||
    !ts.isPropertyAssignment(property) ||
    !ts.isObjectLiteralExpression(property.initializer)
  ) {
    throw new Error('webPreferences must be written as an object literal')
  }
  const literals: Record<string, LiteralValue> = {}
  const expressions: Record<string, string> = {}
  for (const entry of property.initializer.properties) {
    // A spread or shorthand would hide values from the audit as surely as a function call.
    if (!ts.isPropertyAssignment(entry))
      throw new Error(`not a plain key: value pair: ${entry.getText(source)}`)
    const name = propertyName(entry.name, source)
    if (name in literals || name in expressions) throw new Error(`webPreferences names ${name} twice`)
    const value = literalValue(entry.initializer)
    if (value === undefined) expressions[name] = entry.initializer.getText(source)
    else literals[name] = value.value
  }
  return { literals, expressions }
}

function propertyName(name: ts.PropertyName, source: ts.SourceFile): string {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text
  throw new Error(`computed key in webPreferences: ${name.getText(source)}`)
}

function literalValue(node: ts.Expression): { value: LiteralValue } | undefined {
  if (node.kind === ts.SyntaxKind.TrueKeyword) return { value: true }
  if (node.kind === ts.SyntaxKind.FalseKeyword) return { value: false }
  if (node.kind === ts.SyntaxKind.NullKeyword) return { value: null }
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return { value: node.text }
  if (ts.isNumericLiteral(node)) return { value: Number(node.text) }
  return undefined
}

/** The specification's values, preload excepted (its value is a path main computes at run time). */
function specifiedLiterals(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(secureWebPreferences('(computed)')).filter(([key]) => !EXPRESSION_KEYS.has(key)),
  )
}

/** The one comparison the test makes, usable on edited copies of the source too. */
function checkWindowSource(sourceText: string): void {
  const windows = readWebPreferences(sourceText)
  expect(windows, 'window.ts creates exactly one BrowserWindow').toHaveLength(1)
  const [written] = windows
  expect(written!.literals).toStrictEqual(specifiedLiterals())
  expect(Object.keys(written!.expressions).sort()).toEqual([...EXPRESSION_KEYS].sort())
}

/** The print window's specification, its partition excepted (written as the constant's name). */
function specifiedPrintLiterals(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(printWebPreferences()).filter(([key]) => !PRINT_EXPRESSION_KEYS.has(key)),
  )
}

function checkPrintWindowSource(sourceText: string): void {
  const windows = readWebPreferences(sourceText)
  expect(windows, 'print-window.ts creates exactly one BrowserWindow').toHaveLength(1)
  const [written] = windows
  expect(written!.literals).toStrictEqual(specifiedPrintLiterals())
  expect(written!.expressions).toStrictEqual({ partition: 'PRINT_PARTITION' })
}

describe('webPreferences written literally in src/main/shell/adapters/print-window.ts', () => {
  const sourceText = readFileSync(PRINT_WINDOW_SOURCE, 'utf8')

  it('has exactly the keys and literal values of printWebPreferences(), the partition being its constant', () => {
    checkPrintWindowSource(sourceText)
    expect(sourceText).toContain("import { PRINT_PARTITION } from '../window-and-startup/window-security'")
  })

  const edits: Array<[string, (text: string) => string]> = [
    ['javascript: false removed', (text) => text.replace(/^\s*javascript: false,\n/m, '')],
    ['sandbox: true changed to false', (text) => text.replace('sandbox: true,', 'sandbox: false,')],
    ['a preload added', (text) => text.replace('sandbox: true,', "sandbox: true,\n        preload: 'x.js',")],
    [
      'the partition written as another expression',
      (text) => text.replace('partition: PRINT_PARTITION', 'partition: other'),
    ],
    ['a key spread in', (text) => text.replace('sandbox: true,', '...{ sandbox: true },')],
  ]
  for (const [name, edit] of edits) {
    it(`fails when ${name}`, () => {
      const edited = edit(sourceText)
      expect(edited, 'the edit applies to the current source').not.toBe(sourceText)
      expect(() => checkPrintWindowSource(edited)).toThrow()
    })
  }
})

describe('webPreferences written literally in src/main/shell/window.ts', () => {
  const sourceText = readFileSync(WINDOW_SOURCE, 'utf8')

  it('has exactly the keys and literal values of secureWebPreferences(), preload being the only expression', () => {
    checkWindowSource(sourceText)
    expect(readWebPreferences(sourceText)[0]!.expressions['preload']).toContain("'../preload/index.js'")
  })

  // The same check on edited copies, so a green run above means the comparison can see such edits.
  const edits: Array<[string, (text: string) => string]> = [
    ['sandbox: true removed', (text) => text.replace(/^\s*sandbox: true,\n/m, '')],
    ['sandbox: true changed to false', (text) => text.replace('sandbox: true,', 'sandbox: false,')],
    [
      'contextIsolation changed to an expression',
      (text) => text.replace('contextIsolation: true', 'contextIsolation: !0'),
    ],
    ['an extra key added', (text) => text.replace('sandbox: true,', 'sandbox: true,\n      devTools: true,')],
    ['the Auxclick string changed', (text) => text.replace("'Auxclick'", "'Auxclick,Other'")],
    ['a key spread in', (text) => text.replace('sandbox: true,', '...{ sandbox: true },')],
    [
      'the literal replaced by the function call',
      (text) => text.replace(/webPreferences: \{[^}]*\}/, "webPreferences: secureWebPreferences('x')"),
    ],
  ]
  for (const [name, edit] of edits) {
    it(`fails when ${name}`, () => {
      const edited = edit(sourceText)
      expect(edited, 'the edit applies to the current source').not.toBe(sourceText)
      expect(() => checkWindowSource(edited)).toThrow()
    })
  }
})
