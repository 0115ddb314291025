import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { EmployeeRow } from '../../../../../src/shared/domain/rows'
import { columnLabel } from '../../../../../src/main/core/columns/column-label'
import { QueryEngine } from '../../../../../src/main/core/query/query-engine'
import { useTempCache } from '../../../../helpers/temp-cache'
import { rawSnapshot } from '../../../../helpers/raw-snapshot'
import { syncFromFake } from '../../../../helpers/sync-cache'
import { FakeListService, makeEmployees } from '../../../../helpers/sync-fakes'

/** Names an object's prototype answers to: a lookup keyed by service data must never find these. */
const PROTOTYPE_NAMES = [
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__proto__',
  '__defineGetter__',
  '__lookupSetter__',
]

/** A field name the service might send: any short text, the prototype's names much more often than chance. */
const fieldName = fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES), fc.string({ minLength: 1, maxLength: 12 }))

describe('field names from the service', () => {
  const temp = useTempCache()

  it('gives every field name a label of its own, whatever the name', () => {
    fc.assert(
      fc.property(fieldName, (name) => {
        expect(typeof columnLabel(name)).toBe('string')
      }),
    )
    expect(columnLabel('constructor')).toBe('Constructor')
    expect(columnLabel('__proto__')).toBe('Proto')
  })

  it('syncs rows whose extra fields have any names, the prototype’s among them, and lists them as columns', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fieldName, { minLength: 1, maxLength: 5 }), async (names) => {
        const rows = makeEmployees(12).map((row, index) => {
          // Written as JSON text and parsed, as the service's answer is: `__proto__` is an own field there.
          const extra = names.map((name) => `${JSON.stringify(name)}:${JSON.stringify(`${name}-${index}`)}`)
          return JSON.parse(`{${[JSON.stringify(row).slice(1, -1), ...extra].join(',')}}`) as EmployeeRow
        })
        const summary = await syncFromFake(temp.cache, new FakeListService(rows))
        expect(summary.status, summary.error).toBe('complete')
        expect(summary.stored).toBe(12)
        const stored = rawSnapshot(temp.cache.currentSnapshot())
          .prepare('SELECT row_json FROM employees ORDER BY uuid')
          .pluck()
          .all() as string[]
        expect(stored.map((json) => Object.keys(JSON.parse(json) as object))).toEqual(
          stored.map(() => expect.arrayContaining(names)),
        )
        const columns = new QueryEngine({
          path: temp.cache.path,
          currentSnapshot: () => temp.cache.currentSnapshot(),
        })
          .listColumns()
          .map((column) => [column.key, typeof column.label])
        for (const name of names) expect(columns).toContainEqual([name, 'string'])
      }),
      { numRuns: 60 },
    )
  })
})
