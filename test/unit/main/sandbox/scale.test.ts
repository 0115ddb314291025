import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SandboxHandle } from '../../../../src/main/sandbox/index'
import { startTestSandbox } from '../../../helpers/sandbox'
import { listOk } from '../../../helpers/sandbox-requests'

const MILLION = 1_000_000
const MB = 1024 * 1024

describe('a sandbox with 1,000,000 employees', () => {
  let sandbox: SandboxHandle
  let token = ''
  let heapBefore = 0
  beforeAll(async () => {
    heapBefore = process.memoryUsage().heapUsed
    sandbox = await startTestSandbox({ size: MILLION, seed: 2 })
    token = sandbox.issueTokens().accessToken
  })
  afterAll(async () => sandbox.close())

  it('serves page 1 with the full totals', async () => {
    const envelope = await listOk(sandbox, token, { page: 1, limit: 100 })
    expect(envelope).toMatchObject({ totalCount: MILLION, totalPages: 10_000, limit: 100, currentPage: 1 })
    expect(envelope.rows[0]?.employeeNumber).toBe('0000001')
  })

  it('serves the last page, generated from the index on demand', async () => {
    const envelope = await listOk(sandbox, token, { page: 10_000, limit: 100 })
    expect(envelope.rows).toHaveLength(100)
    expect(envelope.rows[99]?.employeeNumber).toBe('1000000')
  })

  it('serves a page deep into a sorted view, in order, and the next page continues it', async () => {
    const page = await listOk(sandbox, token, {
      sortColumn: 'lastName',
      sortOrder: 'desc',
      page: 4000,
      limit: 100,
    })
    const next = await listOk(sandbox, token, {
      sortColumn: 'lastName',
      sortOrder: 'desc',
      page: 4001,
      limit: 100,
    })
    const names = [...page.rows, ...next.rows].map((row) => row.lastName)
    for (let i = 1; i < names.length; i++) expect(names[i - 1]! >= names[i]!).toBe(true)
    expect(page.totalCount).toBe(MILLION)
  })

  it('filters a million rows by status', async () => {
    const envelope = await listOk(sandbox, token, { statusFilter: 1, page: 2, limit: 50 })
    expect(envelope.totalCount).toBeGreaterThan(750_000)
    expect(envelope.totalCount).toBeLessThan(850_000)
    expect(envelope.rows.every((row) => row.employeeStatus === 'Active')).toBe(true)
  })

  it('keeps heap growth bounded: no million row objects are held', () => {
    const growth = (process.memoryUsage().heapUsed - heapBefore) / MB
    expect(growth).toBeLessThan(300)
  })
})
