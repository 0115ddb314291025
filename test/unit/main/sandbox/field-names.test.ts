import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_BEHAVIOURS } from '../../../../src/main/sandbox/index'
import { parseCliArgs, UsageError } from '../../../../src/main/sandbox/cli-args'
import { ODD_FIELD_NAMES, manyFieldName, oddFieldValue } from '../../../../src/main/sandbox/field-names'
import { useTestSandbox } from '../../../helpers/sandbox'
import { getList } from '../../../helpers/sandbox-requests'

/** Issue 32, point 7: fields under names a clerk never chose, or thousands of them, on every page while on. */
describe('switchable behaviours: odd field names and many fields', () => {
  const sandbox = useTestSandbox({ size: 30 })
  afterEach(() => sandbox().setBehaviours({ ...DEFAULT_BEHAVIOURS, faults: DEFAULT_BEHAVIOURS.faults }))
  const token = () => sandbox().issueTokens().accessToken
  const rowsOf = async (query: Record<string, number>): Promise<Array<Record<string, unknown>>> =>
    (JSON.parse((await getList(sandbox(), token(), query)).text) as { rows: Array<Record<string, unknown>> })
      .rows

  it('gives every row a field of each odd name, as own fields (`__proto__` too), on every page', async () => {
    expect(await rowsOf({ page: 1, limit: 5 })).not.toHaveProperty('0.Cost Center')
    sandbox().setBehaviours({ oddFieldNames: true })
    for (const page of [1, 2]) {
      for (const row of await rowsOf({ page, limit: 5 })) {
        ODD_FIELD_NAMES.forEach((name, index) => {
          expect(Object.hasOwn(row, name), name).toBe(true)
          expect(row[name]).toBe(oddFieldValue(index, String(row['UUID'])))
        })
      }
    }
  })

  it('gives every row the number of fields asked for', async () => {
    sandbox().setBehaviours({ manyFields: 2000 })
    const [row] = await rowsOf({ page: 1, limit: 1 })
    expect(row?.[manyFieldName(0)]).toBe('0')
    expect(row?.[manyFieldName(1999)]).toBe('1999')
    expect(row).not.toHaveProperty(manyFieldName(2000))
    expect(manyFieldName(19_999)).toBe('field20000')
  })

  it('is set from the command line, and refuses a count below 1', () => {
    expect(parseCliArgs(['--odd-field-names', '--many-fields=20000'])).toMatchObject({
      behaviours: { oddFieldNames: true, manyFields: 20_000 },
    })
    expect(() => parseCliArgs(['--many-fields=0'])).toThrow(UsageError)
    expect(() => sandbox().setBehaviours({ manyFields: 0 })).toThrow(RangeError)
  })
})
