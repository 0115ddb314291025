import { describe, expect, it } from 'vitest'
import { RosterDeskError } from '../../../../../src/main/core/errors'
import type { JsonValue } from '../../../../../src/shared/domain/rows'
import { MAX_FIELD_DEPTH, TRUNCATION_MARK, limitFields } from '../../../../../src/main/core/sync/field-limit'
import { RunDeadline } from '../../../../../src/main/core/sync/run-deadline'
import { runSync } from '../../../../../src/main/core/sync/sync-engine'
import { fakeClock } from '../../../../helpers/sync-fakes'

describe('limitFields', () => {
  const keep = new Set(['UUID'])

  it('cuts a long text to the limit, ending with the mark, and counts it', () => {
    const row = { UUID: 'u'.repeat(500), lastName: 'x'.repeat(500), firstName: 'Ann', salary: 10 }
    const limited = limitFields(row, 100, keep)
    expect(limited.truncated).toBe(1)
    expect(limited.row['lastName']).toBe(`${'x'.repeat(99)}${TRUNCATION_MARK}`)
    expect(limited.row['UUID']).toBe(row.UUID)
    expect(limited.row['firstName']).toBe('Ann')
    expect(row.lastName).toHaveLength(500)
  })

  it('keeps a list or object over the limit as its JSON text, cut the same way', () => {
    const limited = limitFields(
      { UUID: 'u', tags: Array.from({ length: 100 }, (_, i) => `tag-${i}`) },
      100,
      keep,
    )
    expect(limited.truncated).toBe(1)
    expect(limited.row['tags']).toMatch(/^\["tag-0","tag-1",.*…$/)
    expect(String(limited.row['tags'])).toHaveLength(100)
  })

  it('never splits a surrogate pair, and returns the same row when nothing is cut', () => {
    const emoji = '😀'.repeat(200)
    const cut = String(limitFields({ UUID: 'u', note: emoji }, 100, keep).row['note'])
    expect(cut.endsWith(TRUNCATION_MARK)).toBe(true)
    expect(cut.slice(0, -1)).toBe('😀'.repeat(cut.slice(0, -1).length / 2))
    const row = { UUID: 'u', note: 'short' }
    expect(limitFields(row, 100, keep).row).toBe(row)
  })

  /** A list nested `depth` levels deep around `inner` (a scalar is 0 levels). */
  const nested = (depth: number, inner: JsonValue = 'x'): JsonValue => {
    let value = inner
    for (let level = 0; level < depth; level++) value = [value]
    return value
  }

  it(`keeps a value nested deeper than ${MAX_FIELD_DEPTH} levels as its text up to there, marked, whatever its depth`, () => {
    const deep = nested(100_000)
    const limited = limitFields({ UUID: 'u', deep, within: nested(MAX_FIELD_DEPTH) }, 10_000, keep)
    expect(limited).toMatchObject({ truncated: 1, deep: 1 })
    expect(limited.row['deep']).toBe(`${'['.repeat(MAX_FIELD_DEPTH)}${TRUNCATION_MARK}`)
    // 64 levels are kept as they came, and what is stored then serialises.
    expect(limited.row['within']).toEqual(nested(MAX_FIELD_DEPTH))
    expect(() => JSON.stringify(limited.row)).not.toThrow()
  })

  it('cuts a deep value’s text to the longest field allowed too, and writes objects as JSON.stringify does', () => {
    let deep: JsonValue = 1
    for (let level = 0; level < 70; level++) deep = { 'key "q"': deep, n: level }
    const text = String(limitFields({ UUID: 'u', deep }, 100, keep).row['deep'])
    expect(text).toHaveLength(100)
    expect(text).toBe(`${'{"key \\"q\\"":'.repeat(20).slice(0, 99)}${TRUNCATION_MARK}`)
  })
})

describe('RunDeadline', () => {
  it('says the service asked to wait longer than the run has left, when a Retry-After would pass the deadline', () => {
    const time = fakeClock()
    const deadline = new RunDeadline(time.clock, time.clock.now(), 60_000)
    const notice = {
      reason: 'rate-limited',
      attempt: 1,
      delayMs: 240_000,
      failure: 'The service is busy.',
    } as const
    expect(() => deadline.checkWait(notice)).toThrow(
      /^The payroll service asked RosterDesk to wait 4 minutes before trying again, longer than the 1 minute a sync may take, so RosterDesk stopped it\. The cache was not changed\./,
    )
    expect(() => deadline.checkWait({ ...notice, delayMs: 30_000 })).not.toThrow()
  })

  it('leads with what failed when trying a request again would pass the deadline (an answer that stopped arriving)', () => {
    const time = fakeClock()
    const deadline = new RunDeadline(time.clock, time.clock.now(), 60_000)
    time.advance(45_000)
    const timedOut = 'The payroll service did not answer within 30 s. Check the connection and try again.'
    expect(() =>
      deadline.checkWait({ reason: 'network', attempt: 1, delayMs: 20_000, failure: timedOut }),
    ).toThrow(`${timedOut} Trying again would pass the 1 minute a sync may take, so RosterDesk stopped it.`)
    // Already past it: the run's own deadline message.
    time.advance(20_000)
    expect(() =>
      deadline.checkWait({ reason: 'network', attempt: 2, delayMs: 1, failure: timedOut }),
    ).toThrow(/did not finish within the 1 minute it may take/)
  })

  it('passes until the deadline, and refuses a wait that would end past it', () => {
    const time = fakeClock()
    const deadline = new RunDeadline(time.clock, time.clock.now(), 60_000)
    expect(() => deadline.check()).not.toThrow()
    time.advance(50_000)
    expect(() => deadline.check(5_000)).not.toThrow()
    expect(() => deadline.check(20_000)).toThrow(/did not finish within the 1 minute it may take/)
    time.advance(10_001)
    const error = (() => {
      try {
        deadline.check()
      } catch (e) {
        return e
      }
      return undefined
    })()
    expect(error).toBeInstanceOf(RosterDeskError)
    expect((error as RosterDeskError).code).toBe('service')
  })
})

describe('sync limits as options', () => {
  it('refuses a limit outside its setting’s range in the setting’s words, before the run starts', async () => {
    const deps = {
      cache: {} as never,
      fetch: fetch,
      tokens: {} as never,
      clock: fakeClock().clock,
      random: Math.random,
    }
    await expect(
      runSync(deps, { baseUrl: 'https://payroll.example', pageSize: 100, limits: { maxEmployees: 0 } }),
    ).rejects.toThrow(/Most employees must be a whole number from 1 to 1,000,000,000\./)
    await expect(
      runSync(deps, {
        baseUrl: 'https://payroll.example',
        pageSize: 100,
        limits: { maxPageMegabytes: 5000 },
      }),
    ).rejects.toThrow(/Largest page \(MB\) must be a whole number from 1 to 1,024\./)
  })
})
