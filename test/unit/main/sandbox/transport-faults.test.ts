import { request } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_BEHAVIOURS } from '../../../../src/main/sandbox/index'
import { parseCliArgs, UsageError } from '../../../../src/main/sandbox/cli-args'
import { HUGE_HEADER_BYTES, MAINTENANCE_MESSAGE } from '../../../../src/main/sandbox/transport-faults'
import { useTestSandbox } from '../../../helpers/sandbox'

interface Seen {
  readonly interim: number[]
  readonly status: number
  readonly headerBytes: number
  readonly headers: Record<string, string | string[] | undefined>
  readonly body: string
}

/** A list page read with Node's own client, which reports 1xx answers and reads past them (256 KB headers). */
function readPage(baseUrl: string, token: string, page: number): Promise<Seen> {
  return new Promise((resolve, reject) => {
    const interim: number[] = []
    const req = request(
      `${baseUrl}/employees/list?page=${page}&limit=10`,
      { headers: { authorization: `Bearer ${token}` }, maxHeaderSize: 256 * 1024 },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () =>
          resolve({
            interim,
            status: res.statusCode ?? 0,
            headerBytes: res.rawHeaders.reduce((sum, part) => sum + part.length, 0),
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        )
      },
    )
    req.on('information', (info) => interim.push(info.statusCode))
    req.on('error', reject)
    req.end()
  })
}

/** Issue 32, transport: each `pageAnswer` fault answers the page it names, every time, and no other. */
describe('switchable behaviours: a list page bent at the HTTP layer', () => {
  const sandbox = useTestSandbox({ size: 50 })
  afterEach(() => sandbox().setBehaviours({ ...DEFAULT_BEHAVIOURS, faults: DEFAULT_BEHAVIOURS.faults }))
  const token = () => sandbox().issueTokens().accessToken

  it('sends an interim 100 Continue or 103 Early Hints before the page itself', async () => {
    for (const [fault, status] of [
      ['continue-first', 100],
      ['early-hints-first', 103],
    ] as const) {
      sandbox().setBehaviours({ pageAnswer: { page: 2, fault } })
      const seen = await readPage(sandbox().baseUrl, token(), 2)
      expect(seen.interim).toEqual([status])
      expect(seen.status).toBe(200)
      expect((JSON.parse(seen.body) as { rows: unknown[]; currentPage: number }).currentPage).toBe(2)
      expect((await readPage(sandbox().baseUrl, token(), 1)).interim).toEqual([])
    }
  })

  it('sends more than 64 KB of headers with the page', async () => {
    sandbox().setBehaviours({ pageAnswer: { page: 1, fault: 'huge-headers' } })
    const seen = await readPage(sandbox().baseUrl, token(), 1)
    expect(seen.status).toBe(200)
    expect(seen.headerBytes).toBeGreaterThan(HUGE_HEADER_BYTES)
    expect(seen.headerBytes).toBeGreaterThan(64 * 1024)
    expect((JSON.parse(seen.body) as { rows: unknown[] }).rows).toHaveLength(10)
  })

  it('answers 304, 204, a maintenance 500 with its reason, and 429 without Retry-After', async () => {
    const before = sandbox().stats().faultsInjected
    const answers: Array<[Parameters<ReturnType<typeof sandbox>['setBehaviours']>[0], number, string]> = [
      [{ pageAnswer: { page: 3, fault: 'not-modified' } }, 304, ''],
      [{ pageAnswer: { page: 3, fault: 'no-content' } }, 204, ''],
      [{ pageAnswer: { page: 3, fault: 'rate-limited-bare' } }, 429, '{"error":"rate_limited"}'],
    ]
    for (const [patch, status, body] of answers) {
      sandbox().setBehaviours(patch)
      const seen = await readPage(sandbox().baseUrl, token(), 3)
      expect(seen.status).toBe(status)
      expect(seen.body).toBe(body)
      expect(seen.headers['retry-after']).toBeUndefined()
    }
    sandbox().setBehaviours({ pageAnswer: { page: 3, fault: 'maintenance' } })
    const maintenance = await readPage(sandbox().baseUrl, token(), 3)
    expect(maintenance.status).toBe(500)
    expect(JSON.parse(maintenance.body)).toEqual({ error: 'maintenance', message: MAINTENANCE_MESSAGE })
    expect(sandbox().stats().faultsInjected - before).toBe(4)
  })

  it('refuses a page below 1 or a fault it does not know, changing nothing', () => {
    expect(() => sandbox().setBehaviours({ pageAnswer: { page: 0, fault: 'no-content' } })).toThrow(
      RangeError,
    )
    expect(() =>
      sandbox().setBehaviours({ pageAnswer: { page: 1, fault: 'teapot' as 'no-content' } }),
    ).toThrow(/pageAnswer.fault must be one of/)
    expect(sandbox().behaviours.pageAnswer).toBeNull()
  })
})

describe('the sandbox command line: --page-answer', () => {
  it('sets the page and the fault, and refuses a malformed one with a usage error', () => {
    expect(parseCliArgs(['--page-answer=3:continue-first'])).toMatchObject({
      behaviours: { pageAnswer: { page: 3, fault: 'continue-first' } },
    })
    for (const text of ['3', '0:no-content', '1:teapot', '1:no-content:2']) {
      expect(() => parseCliArgs([`--page-answer=${text}`])).toThrow(UsageError)
    }
  })
})
