import { beforeAll, describe, expect, it } from 'vitest'
import { useTestSandbox } from '../../../helpers/sandbox'
import { listOk, range } from '../../../helpers/sandbox-requests'
import type { Envelope } from '../../../helpers/sandbox-requests'

const ENVELOPE_KEYS = ['rows', 'totalCount', 'totalPages', 'limit', 'currentPage']

describe('GET /employees/list: envelope and pagination (spec §2, §4.4 pagination behaviour)', () => {
  const sandbox = useTestSandbox({ size: 450, seed: 3 })
  let token = ''
  let all: Array<Record<string, unknown>> = []
  beforeAll(() => {
    token = sandbox().issueTokens().accessToken
    all = sandbox().allEmployees()
  })
  const numbers = (envelope: Envelope) => envelope.rows.map((row) => row.employeeNumber)
  const expected = (from: number, to: number) => range(from, to).map((n) => all[n - 1]?.employeeNumber)

  it('answers with exactly the five envelope fields', async () => {
    const envelope = await listOk(sandbox(), token)
    expect(Object.keys(envelope)).toEqual(ENVELOPE_KEYS)
  })

  it('has every envelope field on every page, including past the end', async () => {
    for (const page of [1, 2, 5, 23, 24, 1000]) {
      const envelope = await listOk(sandbox(), token, { page, limit: 20 })
      expect(Object.keys(envelope)).toEqual(ENVELOPE_KEYS)
      expect(envelope).toMatchObject({ totalCount: 450, totalPages: 23, limit: 20, currentPage: page })
    }
  })

  it('returns records 1-20 for page=1&limit=20', async () => {
    expect(numbers(await listOk(sandbox(), token, { page: 1, limit: 20 }))).toEqual(expected(1, 20))
  })

  it('returns records 21-40 for page=2&limit=20', async () => {
    expect(numbers(await listOk(sandbox(), token, { page: 2, limit: 20 }))).toEqual(expected(21, 40))
  })

  it('returns records 201-300 for page=3&limit=100', async () => {
    const envelope = await listOk(sandbox(), token, { page: 3, limit: 100 })
    expect(envelope.rows).toHaveLength(100)
    expect(numbers(envelope)).toEqual(expected(201, 300))
  })

  it('returns a short last page', async () => {
    const envelope = await listOk(sandbox(), token, { page: 5, limit: 100 })
    expect(numbers(envelope)).toEqual(expected(401, 450))
    expect(envelope.totalPages).toBe(5)
  })

  it('returns an empty rows array, not an error, when page is greater than totalPages', async () => {
    const envelope = await listOk(sandbox(), token, { page: 6, limit: 100 })
    expect(envelope).toEqual({ rows: [], totalCount: 450, totalPages: 5, limit: 100, currentPage: 6 })
  })

  it('computes totalPages as ceil(totalCount / limit)', async () => {
    for (const limit of [1, 7, 45, 449, 450, 451]) {
      const envelope = await listOk(sandbox(), token, { limit })
      expect(envelope.totalPages).toBe(Math.ceil(450 / limit))
    }
  })

  it('reports zero pages and no rows when nothing matches', async () => {
    const envelope = await listOk(sandbox(), token, { payCycleId: 'PC-NONE' })
    expect(envelope).toEqual({ rows: [], totalCount: 0, totalPages: 0, limit: 20, currentPage: 1 })
  })

  it('defaults to page 1 and 20 rows per page', async () => {
    const envelope = await listOk(sandbox(), token)
    expect(envelope).toMatchObject({ currentPage: 1, limit: 20, totalPages: 23 })
    expect(numbers(envelope)).toEqual(expected(1, 20))
  })

  it('pages through the whole set without gaps or repeats', async () => {
    const seen: string[] = []
    for (let page = 1; page <= 7; page++)
      seen.push(...numbers(await listOk(sandbox(), token, { page, limit: 70 })))
    expect(seen).toEqual(all.map((row) => row.employeeNumber))
  })
})
