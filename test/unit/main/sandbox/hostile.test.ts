import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_BEHAVIOURS } from '../../../../src/main/sandbox/index'
import { parseCliArgs, UsageError } from '../../../../src/main/sandbox/cli-args'
import { MOVED_LIST_PATH } from '../../../../src/main/sandbox/employees'
import { useTestSandbox } from '../../../helpers/sandbox'
import { getList, listOk } from '../../../helpers/sandbox-requests'

/** The hostile service (issue 12): each switch bends exactly what it says, on the page it names. */
describe('switchable behaviours: a hostile list', () => {
  const sandbox = useTestSandbox({ size: 250 })
  afterEach(() => sandbox().setBehaviours({ ...DEFAULT_BEHAVIOURS, faults: DEFAULT_BEHAVIOURS.faults }))
  const token = () => sandbox().issueTokens().accessToken

  it('lies about the total: claims N employees, serves the real rows and empty pages past them', async () => {
    sandbox().setBehaviours({ lieTotalCount: 1_000_000_000 })
    const page3 = await listOk(sandbox(), token(), { page: 3, limit: 100 })
    expect(page3).toMatchObject({
      totalCount: 1_000_000_000,
      totalPages: 10_000_000,
      limit: 100,
      currentPage: 3,
    })
    expect(page3.rows).toHaveLength(50)
    expect((await listOk(sandbox(), token(), { page: 4, limit: 100 })).rows).toEqual([])
  })

  it('leaves out one row’s UUID and gives one row the first employee’s UUID, on the pages named', async () => {
    sandbox().setBehaviours({ missingUuid: { page: 2, row: 3 }, duplicateUuid: { page: 1, row: 7 } })
    const first = await listOk(sandbox(), token(), { page: 1, limit: 10 })
    expect(first.rows[6]!.UUID).toBe(first.rows[0]!.UUID)
    const second = await listOk(sandbox(), token(), { page: 2, limit: 10 })
    expect(second.rows[2]).not.toHaveProperty('UUID')
    expect(second.rows.filter((row) => 'UUID' in row)).toHaveLength(9)
    // Every pass: the same answer again.
    expect((await listOk(sandbox(), token(), { page: 1, limit: 10 })).rows[6]!.UUID).toBe(first.rows[0]!.UUID)
  })

  it('writes the envelope counts as strings of digits', async () => {
    sandbox().setBehaviours({ numericStrings: true })
    const text = (await getList(sandbox(), token(), { page: 2, limit: 100 })).text
    expect(JSON.parse(text)).toMatchObject({
      totalCount: '250',
      totalPages: '3',
      limit: '100',
      currentPage: '2',
    })
  })

  it('gives one row a field of the size asked for', async () => {
    sandbox().setBehaviours({ oversizedField: { page: 1, row: 2, characters: 200_000 } })
    const text = (await getList(sandbox(), token(), { page: 1, limit: 5 })).text
    const rows = (JSON.parse(text) as { rows: Array<Record<string, unknown>> }).rows
    expect(String(rows[1]?.['notes'])).toHaveLength(200_000)
    expect(rows[0]).not.toHaveProperty('notes')
  })

  it('writes one row’s raw fields into the page as the JSON text given (issue 32), and refuses text that is not JSON', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000)
    sandbox().setBehaviours({
      rawFields: {
        page: 1,
        row: 2,
        fields: { account: '12345678901234567890', salary: '-1e400', notes: deep },
      },
    })
    const text = (await getList(sandbox(), token(), { page: 1, limit: 5 })).text
    expect(text).toContain('"account":12345678901234567890,')
    expect(text).toContain('"salary":-1e400,')
    expect(text).toContain(`"notes":${deep}`)
    expect(text.match(/12345678901234567890/g)).toHaveLength(1)
    expect(() => sandbox().setBehaviours({ rawFields: { page: 1, row: 1, fields: { a: '1e' } } })).toThrow(
      'rawFields.fields.a must be JSON text',
    )
  })

  it('streams an oversized page to its full size, valid JSON, when the client reads it all', async () => {
    sandbox().setBehaviours({ oversizedPage: { page: 2, megabytes: 3 } })
    const response = await getList(sandbox(), token(), { page: 2, limit: 20 })
    expect(response.headers.get('content-length')).toBeNull()
    expect(Buffer.byteLength(response.text)).toBeGreaterThanOrEqual(3 * 1024 * 1024)
    expect(JSON.parse(response.text)).toMatchObject({ totalCount: 250, currentPage: 2 })
    expect((await listOk(sandbox(), token(), { page: 1, limit: 20 })).rows).toHaveLength(20)
  })

  it('stalls the next N requests for a page, after headers or silently, then answers normally', async () => {
    for (const mode of ['headers', 'silent'] as const) {
      sandbox().setBehaviours({ stall: { page: 1, mode, requests: 1 } })
      const control = new AbortController()
      const stalled = fetch(`${sandbox().baseUrl}/employees/list?page=1&limit=5`, {
        headers: { authorization: `Bearer ${token()}` },
        signal: control.signal,
      }).then(async (response) => ({ status: response.status, body: await response.text() }))
      const outcome = await Promise.race([
        stalled.then(
          () => 'answered',
          () => 'aborted',
        ),
        new Promise((resolve) => setTimeout(() => resolve('still waiting'), 300)),
      ])
      expect(outcome).toBe('still waiting')
      control.abort()
      await stalled.catch(() => undefined)
      expect((await listOk(sandbox(), token(), { page: 1, limit: 5 })).rows).toHaveLength(5)
    }
  })

  it('redirects the list to its moved path, which serves it, or to another origin, path and query kept', async () => {
    const ask = (path: string): Promise<Response> =>
      fetch(`${sandbox().baseUrl}${path}?page=2&limit=10`, {
        headers: { authorization: `Bearer ${token()}` },
        redirect: 'manual',
      })
    sandbox().setBehaviours({ redirectList: { status: 308, to: 'moved' } })
    const before = sandbox().stats()
    const moved = await ask('/employees/list')
    expect(moved.status).toBe(308)
    expect(moved.headers.get('location')).toBe(`${MOVED_LIST_PATH}?page=2&limit=10`)
    const served = await ask(MOVED_LIST_PATH)
    expect(served.status).toBe(200)
    expect(((await served.json()) as { rows: unknown[] }).rows).toHaveLength(10)
    // Both count as list requests, by page and by limit as sent.
    const after = sandbox().stats()
    expect(after.listRequests - before.listRequests).toBe(2)
    expect((after.listLimits['10'] ?? 0) - (before.listLimits['10'] ?? 0)).toBe(2)

    sandbox().setBehaviours({ redirectList: { status: 307, to: 'http://127.0.0.1:9' } })
    const away = await ask('/employees/list')
    expect(away.status).toBe(307)
    expect(away.headers.get('location')).toBe('http://127.0.0.1:9/employees/list?page=2&limit=10')
  })

  it('echoes a limit above the one it serves, with totalPages to match', async () => {
    sandbox().setBehaviours({ maxPageSize: null, echoLimitAbove: 40 })
    const large = await listOk(sandbox(), token(), { page: 1, limit: 100 })
    expect(large).toMatchObject({ totalCount: 250, totalPages: 3, limit: 100, currentPage: 1 })
    expect(large.rows).toHaveLength(40)
    // At or below the size it serves, it serves what it says.
    const small = await listOk(sandbox(), token(), { page: 2, limit: 40 })
    expect(small).toMatchObject({ limit: 40 })
    expect(small.rows).toHaveLength(40)
    expect(small.rows[0]).toEqual(sandbox().allEmployees()[40])
  })

  it('refuses hostile settings that make no sense, changing nothing', () => {
    expect(() => sandbox().setBehaviours({ missingUuid: { page: 0, row: 1 } })).toThrow(RangeError)
    expect(() =>
      sandbox().setBehaviours({ stall: { page: 1, mode: 'never' as 'silent', requests: 1 } }),
    ).toThrow(RangeError)
    expect(() => sandbox().setBehaviours({ redirectList: { status: 300 as 301, to: 'moved' } })).toThrow(
      RangeError,
    )
    expect(() =>
      sandbox().setBehaviours({ redirectList: { status: 307, to: 'http://127.0.0.1:9/path' } }),
    ).toThrow(RangeError)
    expect(() => sandbox().setBehaviours({ echoLimitAbove: 0 })).toThrow(RangeError)
    expect(sandbox().behaviours).toMatchObject({
      missingUuid: null,
      stall: null,
      redirectList: null,
      echoLimitAbove: null,
    })
  })
})

describe('sandbox command line: hostile flags', () => {
  it('maps each flag onto its behaviour', () => {
    const options = parseCliArgs([
      '--lie-total=1000000000',
      '--missing-uuid=3:17',
      '--duplicate-uuid=2:5',
      '--numeric-strings',
      '--oversized-page=4:300',
      '--oversized-field=1:2:100000',
      '--stall=5:headers:2',
      '--redirect-list=307:http://127.0.0.1:8081',
      '--echo-limit-above=1000',
    ])
    expect(options).toMatchObject({
      behaviours: {
        lieTotalCount: 1_000_000_000,
        missingUuid: { page: 3, row: 17 },
        duplicateUuid: { page: 2, row: 5 },
        numericStrings: true,
        oversizedPage: { page: 4, megabytes: 300 },
        oversizedField: { page: 1, row: 2, characters: 100_000 },
        stall: { page: 5, mode: 'headers', requests: 2 },
        redirectList: { status: 307, to: 'http://127.0.0.1:8081' },
        echoLimitAbove: 1000,
      },
    })
    expect(parseCliArgs(['--redirect-list=308:moved'])).toMatchObject({
      behaviours: { redirectList: { status: 308, to: 'moved' } },
    })
    expect(parseCliArgs(['--stall=1:silent'])).toMatchObject({
      behaviours: { stall: { page: 1, mode: 'silent', requests: Number.MAX_SAFE_INTEGER } },
    })
  })

  it('refuses malformed positions and modes with a usage error', () => {
    for (const args of [
      ['--missing-uuid=3'],
      ['--duplicate-uuid=0:1'],
      ['--oversized-page=1'],
      ['--oversized-field=1:2'],
      ['--stall=1:sometimes'],
      ['--lie-total=-1'],
      ['--redirect-list=moved'],
      ['--redirect-list=300:moved'],
      ['--redirect-list=307:'],
      ['--echo-limit-above=0'],
    ]) {
      expect(() => parseCliArgs(args)).toThrow(UsageError)
    }
  })
})
