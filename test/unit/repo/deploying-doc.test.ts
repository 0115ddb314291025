import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { POLICY_REGISTRY_VALUES, policySchema } from '../../../src/main/core/policy/policy-schema'

/**
 * docs/deploying.md is what IT reads to write a policy: held here to the policy's contract (policy-schema.ts), so
 * a key renamed or added there fails until the guide says the same. Its example must be a valid policy.
 */
const ROOT = resolve(__dirname, '../../..')
const doc = readFileSync(join(ROOT, 'docs/deploying.md'), 'utf8')

/** The little of zod/mini's schema objects this walk reads (`_zod.def`, as zod 4 lays its schemas out). */
interface SchemaNode {
  readonly _zod: {
    readonly def: {
      readonly type: string
      readonly shape?: Readonly<Record<string, SchemaNode>>
      readonly innerType?: SchemaNode
      readonly element?: SchemaNode
    }
  }
}

/** Every key path of the policy: a list of objects is its own row (`profiles`), its fields `profiles[].name`. */
function keyPaths(node: SchemaNode, prefix: string): string[] {
  const { def } = node._zod
  if (def.type === 'optional' && def.innerType !== undefined) return keyPaths(def.innerType, prefix)
  if (def.type === 'array' && def.element?._zod.def.type === 'object') {
    return [prefix, ...keyPaths(def.element, `${prefix}[]`)]
  }
  if (def.type !== 'object' || def.shape === undefined) return [prefix]
  return Object.entries(def.shape).flatMap(([key, child]) =>
    keyPaths(child, prefix === '' ? key : `${prefix}.${key}`),
  )
}

describe('docs/deploying.md', () => {
  it('gives an example policy that the policy’s own schema accepts', () => {
    const section = doc.slice(doc.indexOf('### Every key'))
    const example = /```json\n([\s\S]*?)\n```/.exec(section)?.[1]
    expect(example).toBeDefined()
    const parsed = policySchema.safeParse(JSON.parse(example ?? ''))
    expect(parsed.error?.issues ?? []).toEqual([])
  })

  it('explains every key of the policy', () => {
    const paths = keyPaths(policySchema as unknown as SchemaNode, '')
    expect(paths).toContain('profiles[].clientSecret')
    expect(paths).toContain('personalData.clearOnSignOut')
    for (const path of paths) expect(doc, path).toContain(`| \`${path}\``)
  })

  it('maps every registry value to its key, with its type', () => {
    for (const entry of POLICY_REGISTRY_VALUES) {
      const row = new RegExp(
        `\\| \`${entry.value}\`\\s+\\| \`${entry.type}\`\\s+\\| \`${entry.path.join('\\.')}\``,
      )
      expect(doc, entry.value).toMatch(row)
    }
  })
})
