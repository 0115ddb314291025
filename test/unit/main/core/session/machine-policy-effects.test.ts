import { existsSync, mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ChangeHistoryEntry } from '../../../../../src/shared/domain/changes'
import type { ProfileList } from '../../../../../src/shared/domain/profiles'
import type { SettingsView } from '../../../../../src/shared/domain/settings'
import { retentionNotice } from '../../../../../src/shared/policy-view'
import { setAsideCache } from '../../../../../src/main/core/cache/set-aside-cache'
import { systemClock, type Clock } from '../../../../../src/main/core/clock'
import type { MachinePolicy } from '../../../../../src/main/core/policy/policy-schema'
import type { PolicyInForce } from '../../../../../src/main/core/policy/policy-in-force'
import { MemorySecretStore } from '../../../../../src/main/core/secrets/secret-store'
import { profileCacheDir } from '../../../../../src/main/core/settings/profile-store'
import { MemoryKeyValueBackend } from '../../../../../src/main/core/settings/settings-store'
import { sandbox, startApp, syncNow, tempDir, uuids } from '../../../../helpers/app-core-under-test'

const DAY = 24 * 60 * 60 * 1000

/** A machine policy as the policy reader hands it to the app core, read from the machine's file. */
function inForce(policy: MachinePolicy): PolicyInForce {
  return { policy, source: '/etc/rosterdesk/policy.json', problem: undefined }
}

/** A clock a test moves: its `now` is `at.now`. */
function movableClock(start: number): Clock & { at: { now: number } } {
  const at = { now: start }
  return { at, now: () => at.now, sleep: systemClock.sleep }
}

describe('the machine policy’s export rules, through the real app core', () => {
  it('refuses CSV and any export over the most rows allowed before a file is written; smaller ones pass', async () => {
    const demo = await sandbox({ size: 40, seed: 5 })
    const dataDir = tempDir()
    const out = join(dataDir, 'exports')
    mkdirSync(out)
    const app = await startApp(demo, dataDir, new MemoryKeyValueBackend(), new MemorySecretStore(), {
      policy: inForce({ exports: { csvAllowed: false, maxRows: 25 } }),
    })
    expect(await app.invoke('auth:sign-in')).toMatchObject({ status: 'signed-in' })
    expect(await syncNow(app)).toMatchObject({ status: 'complete', stored: 40 })
    const view = (await app.invoke('settings:get')) as SettingsView
    expect(view.policy.exports).toEqual({ csvAllowed: false, maxRows: 25 })

    // The whole view: 40 employees, 25 allowed.
    app.savePath.next = join(out, 'all.xlsx')
    const all = { kind: 'view', query: {}, columns: ['lastName'], format: 'xlsx' }
    await expect(app.invoke('export:start', all)).rejects.toMatchObject({
      ipc: {
        code: 'not-allowed',
        message: expect.stringMatching(/holds 40 employees; your organisation allows at most 25/),
      },
    })
    // CSV, even of one row.
    app.savePath.next = join(out, 'one.csv')
    const [first, ...rest] = [...(await uuids(app))]
    await expect(app.invoke('export:start', { ...all, format: 'csv', uuids: [first] })).rejects.toMatchObject(
      {
        ipc: { code: 'not-allowed', message: 'Your organisation allows exports to Excel (.xlsx) only.' },
      },
    )
    // The change report of the first sync: 40 added.
    const [latest] = (await app.invoke('changes:history')) as ChangeHistoryEntry[]
    app.savePath.next = join(out, 'changes.xlsx')
    await expect(
      app.invoke('changes:export', { runId: latest!.runId, format: 'xlsx' }),
    ).rejects.toMatchObject({
      ipc: { code: 'not-allowed', message: expect.stringContaining('at most 25') },
    })
    await expect(app.invoke('changes:export', { runId: latest!.runId, format: 'csv' })).rejects.toMatchObject(
      {
        ipc: { code: 'not-allowed' },
      },
    )
    // Nothing was written, not even a partial file.
    expect(readdirSync(out)).toEqual([])

    // A selection within the limit is written.
    app.savePath.next = join(out, 'chosen.xlsx')
    const chosen = rest.slice(0, 10)
    expect(await app.invoke('export:start', { ...all, uuids: chosen })).toMatchObject({
      status: 'written',
      rows: 10,
    })
    // A roster is held to the same limit: written when its pay cycle has 25 employees or fewer.
    const { facets } = (await app.invoke('employees:query', { limit: 1, facets: true })) as {
      facets: { payCycle: Array<{ value: string; count: number }> }
    }
    const small = facets.payCycle.find((facet) => facet.count <= 25)!
    app.savePath.next = join(out, 'roster.xlsx')
    expect(
      await app.invoke('export:start', {
        kind: 'roster',
        payCycleId: small.value,
        columns: ['lastName'],
        format: 'xlsx',
      }),
    ).toMatchObject({ status: 'written', rows: small.count })
    expect(readdirSync(out).sort()).toEqual(['chosen.xlsx', 'roster.xlsx'])
  })

  it('writes the first rows the limit allows when asked, and refuses a known size over it before any save dialog', async () => {
    const demo = await sandbox({ size: 40, seed: 5 })
    const dataDir = tempDir()
    const out = join(dataDir, 'exports')
    mkdirSync(out)
    const app = await startApp(demo, dataDir, new MemoryKeyValueBackend(), new MemorySecretStore(), {
      policy: inForce({ exports: { maxRows: 25 } }),
    })
    expect(await app.invoke('auth:sign-in')).toMatchObject({ status: 'signed-in' })
    expect(await syncNow(app)).toMatchObject({ status: 'complete', stored: 40 })
    const all = { kind: 'view', query: {}, columns: ['lastName'], format: 'xlsx' }

    // The view's first 25 of 40, in its order: one save dialog, 25 rows.
    app.savePath.next = join(out, 'first.xlsx')
    expect(await app.invoke('export:start', { ...all, firstRows: 25 })).toMatchObject({
      status: 'written',
      rows: 25,
    })
    expect(app.savePath.asked).toBe(1)
    // A roster's first rows too.
    const { facets } = (await app.invoke('employees:query', { limit: 1, facets: true })) as {
      facets: { payCycle: Array<{ value: string; count: number }> }
    }
    const cycle = facets.payCycle.find((facet) => facet.count > 3)!
    app.savePath.next = join(out, 'roster.xlsx')
    const roster = { kind: 'roster', payCycleId: cycle.value, columns: ['lastName'], format: 'xlsx' }
    expect(await app.invoke('export:start', { ...roster, firstRows: 3 })).toMatchObject({ rows: 3 })
    expect(app.savePath.asked).toBe(2)

    // Over the limit, where the size is known before counting: refused with no save dialog.
    const [, ...rest] = [...(await uuids(app))]
    for (const over of [
      { ...all, firstRows: 26 },
      { ...all, uuids: rest.slice(0, 26) },
    ]) {
      await expect(app.invoke('export:start', over)).rejects.toMatchObject({
        ipc: { code: 'not-allowed', message: expect.stringMatching(/holds 26 employees; .* at most 25/) },
      })
    }
    expect(app.savePath.asked).toBe(2)
    expect(readdirSync(out).sort()).toEqual(['first.xlsx', 'roster.xlsx'])
  })
})

describe('the machine policy’s personal data rules, through the real app core', () => {
  it('deletes at start the saved employees, set-aside copies included, not synced for the days allowed', async () => {
    const demo = await sandbox({ size: 30, seed: 3 })
    const dataDir = tempDir()
    const backend = new MemoryKeyValueBackend()
    const secrets = new MemorySecretStore()
    const start = Date.now()
    const clock = movableClock(start)
    const before = await startApp(demo, dataDir, backend, secrets, { clock })
    // Profile 1, synced at the start; profile 2, two days later; profile 3 at the start, then set aside.
    await before.invoke('auth:sign-in')
    expect(await syncNow(before)).toMatchObject({ status: 'complete', stored: 30 })
    const created = (await before.invoke('profiles:create', 'Bureau')) as ProfileList
    const created2 = (await before.invoke('profiles:create', 'Archive')) as ProfileList
    const bureau = created.profiles.find((profile) => profile.name === 'Bureau')!.id
    const archive = created2.profiles.find((profile) => profile.name === 'Archive')!.id
    // Each profile's runs count from 1: only this profile's summary is waited for.
    before.events.length = 0
    await before.invoke('profiles:switch', archive)
    await before.invoke('auth:sign-in')
    expect(await syncNow(before)).toMatchObject({ status: 'complete', stored: 30 })
    clock.at.now = start + 2 * DAY
    before.events.length = 0
    await before.invoke('profiles:switch', bureau)
    await before.invoke('auth:sign-in')
    expect(await syncNow(before)).toMatchObject({ status: 'complete', stored: 30 })
    await before.close()
    const archiveCache = profileCacheDir(dataDir, archive)
    setAsideCache(archiveCache, { setAsideAt: new Date(start).toISOString(), employeeCount: 30 })
    expect(existsSync(`${archiveCache}-set-aside`)).toBe(true)

    // 31 days after the first syncs, 29 after Bureau's, under a policy of 30 days.
    clock.at.now = start + 31 * DAY
    const after = await startApp(demo, dataDir, backend, secrets, {
      clock,
      policy: inForce({ personalData: { deleteUnsyncedAfterDays: 30 } }),
    })
    const { profiles } = (await after.invoke('profiles:list')) as ProfileList
    const byId = new Map(profiles.map((profile) => [profile.id, profile]))
    expect(byId.get(bureau)).toMatchObject({ employeeCount: 30 })
    expect(byId.get('p1')).toMatchObject({ employeeCount: 0 })
    expect(byId.get(archive)?.setAside).toBeUndefined()
    expect(existsSync(`${archiveCache}-set-aside`)).toBe(false)
    expect(existsSync(join(profileCacheDir(dataDir, 'p1'), 'employees.sqlite'))).toBe(false)
    // Bureau, the active profile, still shows its employees.
    expect((await uuids(after)).size).toBe(30)
    // The clerk is told once, in the settings' policy view; the log says what and why, never an employee.
    const view = (await after.invoke('settings:get')) as SettingsView
    expect(view.policy.notices).toEqual([retentionNotice(30)])
    const deletions = after.log.filter((line) => line.includes('deleteUnsyncedAfterDays'))
    expect(deletions).toHaveLength(2)
    expect(deletions.join('\n')).toMatch(/profile p1's saved employees \(30 employees, last synced/)
    expect(deletions.join('\n')).toMatch(
      new RegExp(`profile ${archive}'s set-aside employees \\(30 employees`),
    )
  })

  it('deletes nothing and says nothing when every cache is within the days allowed', async () => {
    const demo = await sandbox({ size: 10, seed: 4 })
    const dataDir = tempDir()
    const backend = new MemoryKeyValueBackend()
    const secrets = new MemorySecretStore()
    const clock = movableClock(Date.now())
    const before = await startApp(demo, dataDir, backend, secrets, { clock })
    await before.invoke('auth:sign-in')
    await syncNow(before)
    await before.close()
    clock.at.now += 29 * DAY
    const after = await startApp(demo, dataDir, backend, secrets, {
      clock,
      policy: inForce({ personalData: { deleteUnsyncedAfterDays: 30 } }),
    })
    expect((await uuids(after)).size).toBe(10)
    expect(((await after.invoke('settings:get')) as SettingsView).policy.notices).toEqual([])
  })

  it('clears the profile’s saved employees at sign-out, after the tokens are gone', async () => {
    const demo = await sandbox({ size: 20, seed: 6 })
    const dataDir = tempDir()
    const app = await startApp(demo, dataDir, new MemoryKeyValueBackend(), new MemorySecretStore(), {
      policy: inForce({ personalData: { clearOnSignOut: true } }),
    })
    // The window is told beforehand, so Sign out can ask first (issue 33, point 8).
    expect(((await app.invoke('settings:get')) as SettingsView).policy.clearsOnSignOut).toBe(true)
    await app.invoke('auth:sign-in')
    expect(await syncNow(app)).toMatchObject({ status: 'complete', stored: 20 })
    expect(await app.invoke('auth:sign-out')).toMatchObject({ status: 'signed-out' })
    // And told after, once: the notice names what went.
    expect(((await app.invoke('settings:get')) as SettingsView).policy.notices).toEqual([
      'Signed out: the 20 saved employees of Demo were deleted, as your organisation requires. ' +
        'Sign in and sync to see employees again.',
    ])
    expect(await app.invoke('sync:get-status')).toMatchObject({ employeeCount: 0 })
    expect((await uuids(app)).size).toBe(0)
    expect(app.log.some((line) => line.includes('at sign-out (personalData.clearOnSignOut)'))).toBe(true)
    // Signed out for good: the profile opens signed out, and signing in again works.
    expect(await app.invoke('auth:get-state')).toMatchObject({ status: 'signed-out' })
    await app.invoke('auth:sign-in')
    expect(await syncNow(app)).toMatchObject({ status: 'complete', stored: 20 })
  })

  it('keeps the saved employees at sign-out without the rule', async () => {
    const demo = await sandbox({ size: 20, seed: 6 })
    const app = await startApp(demo, tempDir(), new MemoryKeyValueBackend(), new MemorySecretStore())
    expect(((await app.invoke('settings:get')) as SettingsView).policy.clearsOnSignOut).toBeUndefined()
    await app.invoke('auth:sign-in')
    await syncNow(app)
    await app.invoke('auth:sign-out')
    expect((await uuids(app)).size).toBe(20)
  })
})
