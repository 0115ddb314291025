import { beforeAll, describe, expect, it } from 'vitest'
import { EMPLOYEE_FIELDS } from '../../../../src/main/sandbox/index'
import type { EmployeeRow } from '../../../../src/main/sandbox/index'
import { useTestSandbox } from '../../../helpers/sandbox'
import { getList, listOk } from '../../../helpers/sandbox-requests'
import type { Query } from '../../../helpers/sandbox-requests'

/** Code-unit order, the documented order of the sandbox. */
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

describe('GET /employees/list: query parameters (spec §4.4)', () => {
  const sandbox = useTestSandbox({ size: 2500, seed: 11 })
  let token = ''
  let all: EmployeeRow[] = []
  beforeAll(() => {
    token = sandbox().issueTokens().accessToken
    all = sandbox().allEmployees() as unknown as EmployeeRow[]
  })
  const everything = async (query: Query): Promise<EmployeeRow[]> =>
    (await listOk(sandbox(), token, { ...query, limit: 1000, page: 1 })).rows.concat(
      (await listOk(sandbox(), token, { ...query, limit: 1000, page: 2 })).rows,
      (await listOk(sandbox(), token, { ...query, limit: 1000, page: 3 })).rows,
    )
  const rejects = async (query: Query) => {
    const response = await getList(sandbox(), token, query)
    expect(response.status).toBe(400)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    expect(JSON.parse(response.text)).toMatchObject({ error: 'invalid_request', message: expect.any(String) })
  }

  it('statusFilter=1 selects exactly the Active employees', async () => {
    const rows = await everything({ statusFilter: 1 })
    expect(rows.length).toBe(all.filter((row) => row.employeeStatus === 'Active').length)
    expect(rows.every((row) => row.employeeStatus === 'Active')).toBe(true)
  })

  it('statusFilter codes 2 to 5 select On leave, Suspended, Terminated and Pending', async () => {
    const statuses = ['On leave', 'Suspended', 'Terminated', 'Pending']
    for (const [i, status] of statuses.entries()) {
      const envelope = await listOk(sandbox(), token, { statusFilter: i + 2, limit: 1000 })
      expect(envelope.totalCount).toBe(all.filter((row) => row.employeeStatus === status).length)
      expect(envelope.rows.every((row) => row.employeeStatus === status)).toBe(true)
    }
  })

  it('statusFilter with an unknown numeric code selects nothing', async () => {
    expect((await listOk(sandbox(), token, { statusFilter: 9 })).totalCount).toBe(0)
  })

  it('statusFilter that is not numeric is a 400', async () => {
    await rejects({ statusFilter: 'Active' })
  })

  it('searchCol+searchVal find a case-insensitive substring in that column', async () => {
    const rows = await everything({ searchCol: 'lastName', searchVal: 'SMI' })
    const wanted = all.filter((row) => row.lastName.toLowerCase().includes('smi'))
    expect(rows.map((row) => row.UUID)).toEqual(wanted.map((row) => row.UUID))
    expect(new Set(rows.map((row) => row.lastName))).toEqual(
      new Set(['Smith', 'Smithers', 'Smithson', 'Smiley', 'Smith-Jones']),
    )
  })

  it('search works on extra columns and on non-Latin text', async () => {
    expect((await everything({ searchCol: 'department', searchVal: 'r&d' })).length).toBe(0)
    const research = await everything({ searchCol: 'department', searchVal: 'research &' })
    expect(research.length).toBe(all.filter((row) => row.department === 'Research & Development').length)
    const tanaka = await everything({ searchCol: 'lastName', searchVal: '田中' })
    expect(tanaka.length).toBeGreaterThan(0)
    expect(tanaka.every((row) => row.lastName === '田中')).toBe(true)
  })

  it('searchCol without searchVal, or searchVal without searchCol, is a 400', async () => {
    await rejects({ searchCol: 'lastName' })
    await rejects({ searchVal: 'smi' })
  })

  it('searchCol naming an unknown column is a 400', async () => {
    await rejects({ searchCol: 'surname', searchVal: 'smi' })
  })

  it('payCycleId restricts the list to that exact pay cycle', async () => {
    const rows = await everything({ payCycleId: 'PC-2026-11-B' })
    expect(rows.length).toBe(all.filter((row) => row.payCycleId === 'PC-2026-11-B').length)
    expect(rows.every((row) => row.payCycleId === 'PC-2026-11-B')).toBe(true)
    expect((await listOk(sandbox(), token, { payCycleId: 'PC-2026-11' })).totalCount).toBe(0)
  })

  it('filters combine: status, pay cycle and search together', async () => {
    const envelope = await listOk(sandbox(), token, {
      statusFilter: 1,
      payCycleId: 'PC-MONTHLY',
      searchCol: 'department',
      searchVal: 'finance',
      limit: 1000,
    })
    const wanted = all.filter(
      (row) =>
        row.employeeStatus === 'Active' && row.payCycleId === 'PC-MONTHLY' && row.department === 'Finance',
    )
    expect(envelope.rows.map((row) => row.UUID)).toEqual(wanted.map((row) => row.UUID))
  })

  it('sortColumn=lastName&sortOrder=asc sorts ascending, ties in default order', async () => {
    const rows = await everything({ sortColumn: 'lastName', sortOrder: 'asc' })
    const wanted = all.slice().sort((a, b) => byCodeUnits(a.lastName, b.lastName))
    expect(rows.map((row) => row.UUID)).toEqual(wanted.map((row) => row.UUID))
  })

  it('sortOrder=desc sorts descending, ties still in default order', async () => {
    const rows = await everything({ sortColumn: 'firstName', sortOrder: 'desc' })
    const wanted = all.slice().sort((a, b) => byCodeUnits(b.firstName, a.firstName))
    expect(rows.map((row) => row.UUID)).toEqual(wanted.map((row) => row.UUID))
  })

  it('sortOrder=desc without sortColumn reverses the default order', async () => {
    const rows = await everything({ sortOrder: 'desc' })
    expect(rows.map((row) => row.UUID)).toEqual(all.map((row) => row.UUID).reverse())
  })

  it('sortOrder defaults to asc', async () => {
    const implicit = await listOk(sandbox(), token, { sortColumn: 'hireDate', limit: 50 })
    const explicit = await listOk(sandbox(), token, { sortColumn: 'hireDate', sortOrder: 'asc', limit: 50 })
    expect(implicit.rows).toEqual(explicit.rows)
  })

  it('sorts numeric extra columns numerically', async () => {
    const rows = await everything({ sortColumn: 'annualSalary', sortOrder: 'desc' })
    const salaries = rows.map((row) => row.annualSalary)
    expect(salaries).toEqual(all.map((row) => row.annualSalary).sort((a, b) => b - a))
  })

  it('sorts high-cardinality columns such as UUID', async () => {
    const rows = await everything({ sortColumn: 'UUID' })
    expect(rows.map((row) => row.UUID)).toEqual(all.map((row) => row.UUID).sort(byCodeUnits))
  })

  it('sorts every column both ways: code-unit order, nulls first, ties in default order', async () => {
    const compare = (a: unknown, b: unknown): number => {
      if (a === b) return 0
      if (a === null) return -1
      if (b === null) return 1
      if (typeof a === 'number' && typeof b === 'number') return a - b
      return byCodeUnits(String(a), String(b))
    }
    for (const column of EMPLOYEE_FIELDS) {
      for (const sortOrder of ['asc', 'desc'] as const) {
        const direction = sortOrder === 'asc' ? 1 : -1
        // Array#sort is stable, so this reference keeps ties in default order too.
        const wanted = all.slice().sort((a, b) => compare(a[column], b[column]) * direction)
        const rows = await everything({ sortColumn: column, sortOrder })
        expect(
          rows.map((row) => row.UUID),
          `${column} ${sortOrder}`,
        ).toEqual(wanted.map((row) => row.UUID))
      }
    }
  })

  it('keeps the sorted order consistent across pages', async () => {
    const one = await listOk(sandbox(), token, { sortColumn: 'department', limit: 500, page: 1 })
    const pieces = []
    for (let page = 1; page <= 5; page++) {
      pieces.push(...(await listOk(sandbox(), token, { sortColumn: 'department', limit: 100, page })).rows)
    }
    expect(pieces).toEqual(one.rows)
  })

  it('sortColumn naming an unknown column is a 400', async () => {
    await rejects({ sortColumn: 'salary' })
  })

  it('sortOrder other than asc or desc is a 400', async () => {
    await rejects({ sortColumn: 'lastName', sortOrder: 'ascending' })
  })

  it('page and limit must be whole numbers of at least 1', async () => {
    const invalid: Query[] = [
      { page: 0 },
      { page: -1 },
      { page: 1.5 },
      { page: 'two' },
      { limit: 0 },
      { limit: '10x' },
    ]
    for (const query of invalid) {
      await rejects(query)
    }
  })

  it('a parameter given twice is a 400', async () => {
    const response = await fetch(`${sandbox().baseUrl}/employees/list?page=1&page=2`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(response.status).toBe(400)
  })
})
