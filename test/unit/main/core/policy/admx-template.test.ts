import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { SaxesParser } from 'saxes'
import { describe, expect, it } from 'vitest'
import { PROXY_MODES } from '../../../../../src/shared/settings-rules'
import { SENSITIVE_COLUMNS_RULES } from '../../../../../src/shared/policy-view'
import {
  POLICY_REGISTRY_VALUES,
  UPDATE_CHANNELS,
  policySchema,
} from '../../../../../src/main/core/policy/policy-schema'

/**
 * The Group Policy templates in resources/policy/ against the registry values RosterDesk reads
 * (POLICY_REGISTRY_VALUES): exactly one policy per value, of the kind its schema takes, under the one key, and
 * every string and presentation the template names present in its English resources, with nothing extra. The
 * files are parsed as XML (saxes), so a malformed file fails here.
 */

const ROOT = resolve(__dirname, '../../../../..')
const ADMX = join(ROOT, 'resources/policy/RosterDesk.admx')
const ADML = join(ROOT, 'resources/policy/en-US/RosterDesk.adml')
const NAMESPACE = 'http://schemas.microsoft.com/GroupPolicy/2006/07/PolicyDefinitions'
const KEY = 'Software\\Policies\\RosterDesk'

/** An XML element as the test reads it: its name, namespace, attributes, child elements and text. */
interface XmlElement {
  readonly localName: string
  readonly namespaceURI: string
  readonly attributes: ReadonlyMap<string, string>
  readonly children: XmlElement[]
  textContent: string
  getAttribute(name: string): string | null
}

/**
 * Parses a file with saxes (the XML parser exceljs reads workbooks with), which refuses anything not well-formed
 * or namespace-correct; the tree is the little the test reads.
 */
function parse(path: string): { readonly documentElement: XmlElement } {
  const parser = new SaxesParser({ xmlns: true })
  const stack: XmlElement[] = []
  let root: XmlElement | undefined
  parser.on('opentag', (tag) => {
    const attributes = new Map(
      Object.values(tag.attributes).map((attribute) => [attribute.name, attribute.value]),
    )
    const element: XmlElement = {
      localName: tag.local,
      namespaceURI: tag.uri,
      attributes,
      children: [],
      textContent: '',
      getAttribute: (name) => attributes.get(name) ?? null,
    }
    stack.at(-1)?.children.push(element)
    root ??= element
    stack.push(element)
  })
  parser.on('text', (text) => {
    for (const open of stack) open.textContent += text
  })
  parser.on('closetag', () => void stack.pop())
  parser.on('error', (error) => {
    throw new Error(`${path} is not well-formed XML: ${error.message}`)
  })
  parser.write(readFileSync(path, 'utf8')).close()
  if (root === undefined) throw new Error(`${path} holds no element`)
  return { documentElement: root }
}

const admx = parse(ADMX)
const adml = parse(ADML)

/** Every element named `name` in the template's namespace, in document order, below `root`. */
function all(root: { readonly documentElement: XmlElement } | XmlElement, name: string): XmlElement[] {
  const start = 'documentElement' in root ? root.documentElement : root
  const found: XmlElement[] = []
  const visit = (element: XmlElement): void => {
    for (const child of element.children) {
      if (child.localName === name && child.namespaceURI === NAMESPACE) found.push(child)
      visit(child)
    }
  }
  visit(start)
  return found
}

function children(element: XmlElement, name?: string): XmlElement[] {
  return element.children.filter((child) => name === undefined || child.localName === name)
}

/** What the Group Policy editor writes for one value: its name, its kind, and for an enum its strings. */
interface WrittenValue {
  readonly policy: string
  readonly valueName: string
  readonly kind: 'boolean' | 'decimal' | 'enum' | 'text'
  readonly items?: readonly string[]
  readonly range?: readonly [number, number]
}

/** Every value the template's policies write: a 0/1 policy of its own, or one element each. */
function writtenValues(): WrittenValue[] {
  const values: WrittenValue[] = []
  for (const policy of all(admx, 'policy')) {
    const name = policy.getAttribute('name') ?? ''
    const valueName = policy.getAttribute('valueName')
    if (valueName !== null) {
      const decimal = (tag: string) => {
        const holder = children(policy, tag)[0]
        return holder === undefined ? undefined : all(holder, 'decimal')[0]?.getAttribute('value')
      }
      expect([decimal('enabledValue'), decimal('disabledValue')], name).toEqual(['1', '0'])
      values.push({ policy: name, valueName, kind: 'boolean' })
    }
    for (const elements of children(policy, 'elements')) {
      for (const element of children(elements)) {
        const id = element.getAttribute('valueName') ?? ''
        const kind = element.localName
        if (kind === 'enum') {
          const items = all(element, 'string').map((item) => item.textContent)
          values.push({ policy: name, valueName: id, kind, items })
        } else if (kind === 'decimal') {
          const range = [
            Number(element.getAttribute('minValue')),
            Number(element.getAttribute('maxValue')),
          ] as const
          values.push({ policy: name, valueName: id, kind, range })
        } else if (kind === 'text' || kind === 'boolean') {
          values.push({ policy: name, valueName: id, kind })
        } else {
          throw new Error(`${name}: an element of kind ${kind} writes no value RosterDesk reads`)
        }
      }
    }
  }
  return values
}

/** A policy holding `value` at `path` (a registry value's place in the policy), checked by the policy's schema. */
function accepts(path: readonly string[], value: unknown): boolean {
  const [section, field] = path
  const policy = field === undefined ? { [section!]: value } : { [section!]: { [field]: value } }
  return policySchema.safeParse(policy).success
}

/** The strings an enum value may take, by the schema's own lists. */
const ENUM_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  ProxyMode: PROXY_MODES,
  UpdateChannel: UPDATE_CHANNELS,
  SensitiveColumns: SENSITIVE_COLUMNS_RULES,
}

describe('the ADMX template for HKLM\\Software\\Policies\\RosterDesk', () => {
  it('is a machine policy template: every policy under the one key, in a category, supported on RosterDesk', () => {
    expect(admx.documentElement.localName).toBe('policyDefinitions')
    expect(admx.documentElement.namespaceURI).toBe(NAMESPACE)
    const categories = new Set(all(admx, 'category').map((category) => category.getAttribute('name')))
    const supported = new Set(all(admx, 'definition').map((definition) => definition.getAttribute('name')))
    for (const category of all(admx, 'category')) {
      const parent = children(category, 'parentCategory')[0]?.getAttribute('ref')
      if (parent !== undefined) expect(categories.has(parent)).toBe(true)
    }
    const policies = all(admx, 'policy')
    expect(policies.length).toBeGreaterThan(0)
    for (const policy of policies) {
      expect(policy.getAttribute('class')).toBe('Machine')
      expect(policy.getAttribute('key')).toBe(KEY)
      expect(categories.has(children(policy, 'parentCategory')[0]?.getAttribute('ref') ?? '')).toBe(true)
      expect(supported.has(children(policy, 'supportedOn')[0]?.getAttribute('ref') ?? '')).toBe(true)
    }
  })

  it('writes exactly the registry values RosterDesk reads, each of the kind its schema takes', () => {
    const written = writtenValues()
    expect(written.map((value) => value.valueName).sort()).toEqual(
      POLICY_REGISTRY_VALUES.map((entry) => entry.value).sort(),
    )
    const byName = new Map(written.map((value) => [value.valueName, value]))
    for (const entry of POLICY_REGISTRY_VALUES) {
      const value = byName.get(entry.value)!
      // Each value is its own policy, named after it, so an administrator finds it by the registry's name.
      expect(value.policy).toBe(entry.value)
      if (entry.type === 'REG_DWORD') {
        if (accepts(entry.path, true)) {
          expect(value.kind, entry.value).toBe('boolean')
        } else {
          expect(value.kind, entry.value).toBe('decimal')
          const [min, max] = value.range!
          // The range the editor allows is the schema's: its ends accepted, one past either refused.
          expect([accepts(entry.path, min), accepts(entry.path, max)], entry.value).toEqual([true, true])
          expect([accepts(entry.path, min - 1), accepts(entry.path, max + 1)], entry.value).toEqual([
            false,
            false,
          ])
        }
      } else if (Object.hasOwn(ENUM_OPTIONS, entry.value)) {
        expect(value.kind, entry.value).toBe('enum')
        // The schema's own lists (its enums are built from them): every item is a value the policy accepts.
        expect(value.items).toEqual(ENUM_OPTIONS[entry.value])
      } else {
        // Text, the profiles' JSON list among them (json: true), read as the policy file's own text would be.
        expect(value.kind, entry.value).toBe('text')
      }
    }
  })
})

describe('the ADML resources (en-US)', () => {
  const strings = new Map(
    all(adml, 'string').map((string) => [string.getAttribute('id') ?? '', string.textContent]),
  )
  const presentations = new Map(
    all(adml, 'presentation').map((presentation) => [presentation.getAttribute('id') ?? '', presentation]),
  )
  const admxText = readFileSync(ADMX, 'utf8')
  const referenced = (kind: 'string' | 'presentation'): Set<string> =>
    new Set(
      [...admxText.matchAll(new RegExp(`\\$\\(${kind}\\.([A-Za-z0-9_]+)\\)`, 'g'))].map((match) => match[1]!),
    )

  it('holds every string and presentation the template names, and nothing it does not', () => {
    expect(adml.documentElement.localName).toBe('policyDefinitionResources')
    expect([...strings.keys()].sort()).toEqual([...referenced('string')].sort())
    expect([...presentations.keys()].sort()).toEqual([...referenced('presentation')].sort())
    for (const [id, text] of strings) expect(text.trim(), id).not.toBe('')
  })

  it('gives each element of a policy one control in that policy’s presentation, and no other', () => {
    for (const policy of all(admx, 'policy')) {
      const ids = children(policy, 'elements').flatMap((elements) =>
        children(elements).map((element) => element.getAttribute('id') ?? ''),
      )
      const presentationRef = /^\$\(presentation\.(.+)\)$/.exec(
        policy.getAttribute('presentation') ?? '',
      )?.[1]
      const controls =
        presentationRef === undefined
          ? []
          : children(presentations.get(presentationRef)!).map(
              (control) => control.getAttribute('refId') ?? '',
            )
      expect(controls.sort(), policy.getAttribute('name') ?? '').toEqual(ids.sort())
    }
  })

  it('tells IT that every local user can read the profiles’ client secret', () => {
    expect(strings.get('Profiles_Help')).toContain('every user of this computer can read this registry value')
  })
})

describe('the Windows installer', () => {
  it('ships both templates in its resources folder (resources\\policy\\), where IT finds them', () => {
    const config = JSON.parse(readFileSync(join(ROOT, 'electron-builder.json'), 'utf8')) as {
      win: { extraResources?: Array<{ from: string; to: string; filter?: string[] }> }
    }
    expect(config.win.extraResources).toContainEqual({
      from: 'resources/policy',
      to: 'policy',
      filter: ['**/*.admx', '**/*.adml'],
    })
  })
})
