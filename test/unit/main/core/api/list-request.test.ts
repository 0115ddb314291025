import { beforeAll, describe, expect, it } from 'vitest'
import { EMPLOYEE_LIST, ListClient } from '../../../../../src/main/core/api/list-client'
import { checkListEnvelope } from '../../../../../src/main/core/api/list-envelope'
import {
  ACTIVE_STATUS_FILTER,
  LIST_PARAMETERS,
  listQueryParams,
  listRequestUrl,
} from '../../../../../src/main/core/api/list-request'
import type { ListRequest } from '../../../../../src/main/core/api/list-request'
import { systemClock } from '../../../../../src/main/core/clock'
import { RosterDeskError } from '../../../../../src/main/core/errors'
import type { EmployeeRow } from '../../../../../src/main/sandbox/index'
import { useTestSandbox } from '../../../../helpers/sandbox'

/** Every parameter set, with values that need escaping. */
const EVERYTHING: ListRequest = {
  page: 2,
  limit: 50,
  sortColumn: 'lastName',
  sortOrder: 'desc',
  statusFilter: ACTIVE_STATUS_FILTER,
  searchCol: 'lastName',
  searchVal: 'Smïth & co',
  payCycleId: 'PC-2026-11-A',
}

describe('the list-request builder (spec §4.4, §4.5)', () => {
  it('names all eight parameters exactly as the spec does, in its order', () => {
    expect(LIST_PARAMETERS).toEqual([
      'page',
      'limit',
      'sortColumn',
      'sortOrder',
      'statusFilter',
      'searchCol',
      'searchVal',
      'payCycleId',
    ])
    expect(listQueryParams(EVERYTHING).toString()).toBe(
      'page=2&limit=50&sortColumn=lastName&sortOrder=desc&statusFilter=1&searchCol=lastName' +
        '&searchVal=Sm%C3%AFth+%26+co&payCycleId=PC-2026-11-A',
    )
  })

  it('sends a parameter only when it is set', () => {
    expect(listQueryParams({}).toString()).toBe('')
    expect(listQueryParams({ page: 1, limit: 500 }).toString()).toBe('page=1&limit=500')
    expect([...listQueryParams({ statusFilter: '1' }).keys()]).toEqual(['statusFilter'])
    expect([...listQueryParams({ searchCol: 'UUID', searchVal: 'ab12' }).keys()]).toEqual([
      'searchCol',
      'searchVal',
    ])
    for (const name of LIST_PARAMETERS.filter((n) => n !== 'searchCol' && n !== 'searchVal')) {
      const one = Object.fromEntries([[name, EVERYTHING[name]]]) as ListRequest
      expect([...listQueryParams(one).keys()], name).toEqual([name])
    }
  })

  it('refuses requests no caller should build, rather than earn a 400', () => {
    for (const bad of [{ page: 0 }, { page: 1.5 }, { limit: -1 }, { sortColumn: '' }, { payCycleId: '' }]) {
      expect(() => listQueryParams(bad), JSON.stringify(bad)).toThrow(RangeError)
    }
    // The type allows the search only whole; a caller that gets round it is refused at run time too.
    const half = { searchCol: 'lastName' } as unknown as ListRequest
    expect(() => listQueryParams(half)).toThrow(/go together/)
    const order = { sortOrder: 'up' } as unknown as ListRequest
    expect(() => listQueryParams(order)).toThrow(/sortOrder/)
  })

  it('puts any list path after the base address, whose trailing slash and own path it keeps right', () => {
    expect(listRequestUrl('https://payroll.example/api/', '/employees/list', { page: 3, limit: 100 })).toBe(
      'https://payroll.example/api/employees/list?page=3&limit=100',
    )
    expect(listRequestUrl('https://payroll.example', '/customers/list', {})).toBe(
      'https://payroll.example/customers/list',
    )
    expect(() => listRequestUrl('https://payroll.example', 'employees/list', {})).toThrow(RangeError)
  })
})

describe('the one envelope reader, for any list', () => {
  const envelope = (rows: unknown[]) => ({
    rows,
    totalCount: rows.length,
    totalPages: 1,
    limit: 10,
    currentPage: 1,
  })

  it('requires the id field only of lists whose rows are known to carry one', () => {
    expect(checkListEnvelope(envelope([{ name: 'Acme Ltd' }]))).toMatchObject({ ok: true })
    expect(checkListEnvelope(envelope([{ name: 'Acme Ltd' }]), 'UUID')).toEqual({
      ok: false,
      problem: 'the row has no UUID',
      field: 'UUID',
      row: 1,
    })
    expect(checkListEnvelope(envelope([{ UUID: 'u-1' }]), 'UUID')).toMatchObject({ ok: true })
  })
})

describe('requests built by the builder, as the sandbox service reads them', () => {
  const sandbox = useTestSandbox({ size: 1200, seed: 21 })
  let all: EmployeeRow[] = []
  let client: (endpoint?: typeof EMPLOYEE_LIST) => ListClient
  beforeAll(() => {
    all = sandbox().allEmployees() as unknown as EmployeeRow[]
    const { accessToken } = sandbox().issueTokens()
    client = (endpoint = EMPLOYEE_LIST) =>
      new ListClient({
        endpoint,
        baseUrl: sandbox().baseUrl,
        fetch,
        tokens: {
          getAccessToken: async () => accessToken,
          handleUnauthorized: async () => {
            throw new RosterDeskError('not-signed-in', 'refused')
          },
        },
        clock: systemClock,
        random: () => 0.5,
        retry: { maxAttempts: 1 },
      })
  })

  it('all eight at once select, sort and page exactly as the spec describes', async () => {
    const request: ListRequest = {
      page: 2,
      limit: 5,
      sortColumn: 'firstName',
      sortOrder: 'desc',
      statusFilter: ACTIVE_STATUS_FILTER,
      searchCol: 'department',
      searchVal: 'ENGINEER',
      payCycleId: 'PC-MONTHLY',
    }
    const matching = all
      .filter(
        (row) =>
          row.employeeStatus === 'Active' &&
          row.department === 'Engineering' &&
          row.payCycleId === 'PC-MONTHLY',
      )
      // Code-unit order, ties in the service's default order (Array#sort is stable).
      .sort((a, b) => (a.firstName < b.firstName ? 1 : a.firstName > b.firstName ? -1 : 0))
    expect(matching.length).toBeGreaterThan(10)
    const envelope = await client().fetchPage(request)
    expect(envelope).toMatchObject({
      totalCount: matching.length,
      totalPages: Math.ceil(matching.length / 5),
      limit: 5,
      currentPage: 2,
    })
    expect(envelope.rows.map((row) => row['UUID'])).toEqual(matching.slice(5, 10).map((row) => row.UUID))
  })

  it('statusFilter=1 alone counts the active employees in totalCount', async () => {
    const envelope = await client().fetchPage({ page: 1, limit: 1, statusFilter: ACTIVE_STATUS_FILTER })
    expect(envelope.totalCount).toBe(all.filter((row) => row.employeeStatus === 'Active').length)
    expect(envelope.totalCount).toBeLessThan(all.length)
  })

  it('takes the list path as a parameter: a list the service does not have is named in the refusal', async () => {
    const customers = { path: '/customers/list', name: 'customer list' }
    const error = await client(customers)
      .fetchPage({ page: 1, limit: 10 })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RosterDeskError)
    expect(error).toMatchObject({ code: 'config', status: 404 })
    expect((error as Error).message).toMatch(/has no customer list at this address \(HTTP 404\)/)
  })
})
