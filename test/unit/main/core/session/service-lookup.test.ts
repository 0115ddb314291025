import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ServiceLookupResult } from '../../../../../src/shared/domain/lookup'
import { createAppCore, type AppCore } from '../../../../../src/main/core/session/create-app-core'
import { coreWorkerRunners } from '../../../../../src/main/core-host/worker/worker-runners'
import { dispatchInvoke } from '../../../../../src/main/core/ipc/dispatch'
import { createLogger } from '../../../../../src/main/core/log/logger'
import { MemorySecretStore } from '../../../../../src/main/core/secrets/secret-store'
import { MemoryKeyValueBackend, SettingsStore } from '../../../../../src/main/core/settings/settings-store'
import type { EmployeeRow, SandboxHandle } from '../../../../../src/main/sandbox'
import { answerConsent } from '../../../../helpers/consent'
import { startTestSandbox } from '../../../../helpers/sandbox'
import { aboutCells, readXlsx } from '../../../../helpers/xlsx-reader'
import { testCoreWorkerEntry } from '../../../../helpers/core-worker-bundle'
import { TEST_CACHE_KEY } from '../../../../helpers/test-cache-key'

/**
 * "Look up on the service" and the active-only sync scope, through the contract's handlers (dispatchInvoke, as
 * IPC and the browser harness call them) of the real app core, against the sandbox service.
 */

interface App {
  readonly core: AppCore
  readonly sandbox: SandboxHandle
  /** Every URL the core fetched from the service, query strings included. */
  readonly urls: string[]
  readonly logs: string[]
  readonly dataDir: string
  readonly savePath: { next: string | undefined }
  invoke(channel: string, ...args: unknown[]): Promise<unknown>
  /** Starts a sync through `sync:start` and waits for its `sync:finished` summary. */
  sync(): Promise<{ stored: number; totalCount: number; status: string }>
  signInAndSync(): Promise<{ stored: number; totalCount: number; status: string }>
}

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function startApp(size = 300): Promise<App> {
  const sandbox = await startTestSandbox({ size, seed: 5 })
  const dataDir = mkdtempSync(join(tmpdir(), 'rosterdesk-lookup-'))
  const urls: string[] = []
  const logs: string[] = []
  const savePath: App['savePath'] = { next: undefined }
  const logger = createLogger((level, line) => logs.push(`${level} ${line}`))
  const finished: unknown[] = []
  const core = await createAppCore({
    cacheKey: TEST_CACHE_KEY,
    appInfo: { name: 'RosterDesk', version: '0.1.0', platform: 'linux' },
    dataDir,
    settings: new SettingsStore(new MemoryKeyValueBackend()),
    secrets: new MemorySecretStore(),
    fetch: (input, init) => {
      urls.push(input)
      return fetch(input, init)
    },
    openExternal: async (url) => {
      const callback = await answerConsent(url, 'approve')
      setTimeout(() => void core.handleCallbackUrl(callback), 0)
    },
    demo: { environment: { baseUrl: sandbox.baseUrl, ...sandbox.credentials }, close: async () => undefined },
    events: { emit: (channel, payload) => void (channel === 'sync:finished' && finished.push(payload)) },
    logger,
    runners: coreWorkerRunners({ logger, entry: await testCoreWorkerEntry(), cacheKey: TEST_CACHE_KEY }),
    chooseExportPath: async () => savePath.next,
    revealFile: () => undefined,
  })
  cleanups.push(async () => {
    await core.close()
    await sandbox.close()
    rmSync(dataDir, { recursive: true, force: true })
  })
  const invoke = async (channel: string, ...args: unknown[]): Promise<unknown> => {
    const result = await dispatchInvoke(core.handlers, channel, args, logger)
    if (!result.ok) throw Object.assign(new Error(result.error.message), { ipc: result.error })
    return result.value
  }
  const sync = async (): Promise<{ stored: number; totalCount: number; status: string }> => {
    const { runId } = (await invoke('sync:start')) as { runId: number }
    await vi.waitFor(() => expect(finished).toContainEqual(expect.objectContaining({ id: runId })), {
      timeout: 20_000,
    })
    const summary = finished.find((each) => (each as { id: number }).id === runId)
    return summary as { stored: number; totalCount: number; status: string }
  }
  return {
    core,
    sandbox,
    urls,
    logs,
    dataDir,
    savePath,
    invoke,
    sync,
    async signInAndSync() {
      await invoke('auth:sign-in')
      return sync()
    },
  }
}

/** Adds one employee on the service (the sandbox's churn, on the next list request), as HR would this morning. */
async function hireOnTheService(sandbox: SandboxHandle): Promise<EmployeeRow> {
  sandbox.setBehaviours({ churn: { add: 1, remove: 0, listRequests: 1 } })
  const { accessToken } = sandbox.issueTokens()
  const response = await fetch(`${sandbox.baseUrl}/employees/list?limit=1`, {
    headers: { authorization: `Bearer ${accessToken}` },
  })
  expect(response.status).toBe(200)
  // Churn puts new employees at the front of the service's default order.
  return sandbox.allEmployees()[0] as unknown as EmployeeRow
}

/** The search requests the core sent: each URL's query as [name, value] pairs, in the order written. */
function searchQueries(urls: readonly string[]): Array<Array<[string, string]>> {
  return urls
    .map((url) => new URL(url))
    .filter((url) => url.pathname === '/employees/list' && url.searchParams.has('searchCol'))
    .map((url) => [...url.searchParams.entries()])
}

describe('employees:lookup-service, "Look up on the service"', () => {
  it('finds someone hired since the sync, marked not saved, by the column chosen in "Search in"', async () => {
    const app = await startApp()
    expect(await app.signInAndSync()).toMatchObject({ status: 'complete', stored: 300 })
    const hired = await hireOnTheService(app.sandbox)
    expect(await app.invoke('employees:get', hired.UUID)).toBeNull()

    const found = (await app.invoke('employees:lookup-service', {
      text: hired.employeeNumber,
      column: 'employeeNumber',
    })) as ServiceLookupResult
    expect(found.rows).toEqual([{ row: hired, saved: false }])
    expect(found.searched).toEqual([
      { column: 'employeeNumber', label: 'Employee number', totalCount: 1, shown: 1 },
    ])
    expect(Date.parse(found.fetchedAt)).toBeGreaterThan(Date.now() - 60_000)
    // One page, the clerk's text as searchVal, ordered by last name as nothing else was asked; the spec's names.
    expect(searchQueries(app.urls)).toEqual([
      [
        ['page', '1'],
        ['limit', '25'],
        ['sortColumn', 'lastName'],
        ['sortOrder', 'asc'],
        ['searchCol', 'employeeNumber'],
        ['searchVal', hired.employeeNumber],
      ],
    ])
    // Nothing found live is saved.
    expect(await app.invoke('employees:get', hired.UUID)).toBeNull()
  })

  it('finds a full name typed either way round: the last name asked of the service, the first name checked', async () => {
    const app = await startApp()
    await app.signInAndSync()
    const everyone = app.sandbox.allEmployees() as unknown as EmployeeRow[]
    const someone = everyone.find((row) => !/[\s'-]/.test(`${row.lastName}${row.firstName}`))!
    const same = (row: EmployeeRow): boolean =>
      row.lastName === someone.lastName && row.firstName === someone.firstName
    for (const text of [
      `${someone.lastName} ${someone.firstName}`,
      `${someone.firstName} ${someone.lastName}`,
    ]) {
      app.urls.length = 0
      const found = (await app.invoke('employees:lookup-service', { text })) as ServiceLookupResult
      // Every employee of that name, and no one else: one column at a time never holds both words.
      expect(found.rows.map(({ row }) => row['UUID']).sort()).toEqual(
        everyone
          .filter(same)
          .map((row) => row.UUID)
          .sort(),
      )
      expect(found.searched.map((each) => [each.column, each.totalCount])).toEqual([
        ['lastName', 0],
        ['firstName', 0],
      ])
      expect(found.asNames).toEqual([
        expect.objectContaining({ lastName: text.split(' ')[0], firstName: text.split(' ')[1] }),
        expect.objectContaining({ lastName: text.split(' ')[1], firstName: text.split(' ')[0] }),
      ])
      const asked = searchQueries(app.urls).map((query) => Object.fromEntries(query))
      const [first, second] = text.split(' ')
      expect(asked.map((query) => `${query['searchCol']}=${query['searchVal']}`).sort()).toEqual(
        [`lastName=${text}`, `firstName=${text}`, `lastName=${first}`, `lastName=${second}`].sort(),
      )
    }
  })

  it('searches last and first names by default, each employee once, saying which are saved already', async () => {
    const app = await startApp()
    await app.signInAndSync()
    const hired = await hireOnTheService(app.sandbox)
    const text = hired.lastName.slice(0, 3).toUpperCase()
    const found = (await app.invoke('employees:lookup-service', {
      text: ` ${text} `,
      sort: { column: 'hireDate', order: 'desc' },
    })) as ServiceLookupResult

    const everyone = app.sandbox.allEmployees() as unknown as EmployeeRow[]
    const has = (value: string) => value.toLowerCase().includes(text.toLowerCase())
    const inLast = everyone.filter((row) => has(row.lastName))
    const inFirst = everyone.filter((row) => has(row.firstName))
    expect(found.searched).toEqual([
      {
        column: 'lastName',
        label: 'Last name',
        totalCount: inLast.length,
        shown: Math.min(25, inLast.length),
      },
      {
        column: 'firstName',
        label: 'First name',
        totalCount: inFirst.length,
        shown: Math.min(25, inFirst.length),
      },
    ])
    const uuids = found.rows.map((each) => each.row['UUID'])
    expect(new Set(uuids).size).toBe(uuids.length)
    expect(found.rows.every(({ row }) => has(String(row['lastName'])) || has(String(row['firstName'])))).toBe(
      true,
    )
    // Only the hire is missing from the saved employees.
    for (const { row, saved } of found.rows) expect(saved).toBe(row['UUID'] !== hired.UUID)
    const queries = searchQueries(app.urls)
    expect(queries.map((query) => Object.fromEntries(query))).toEqual(
      ['lastName', 'firstName'].map((column) => ({
        page: '1',
        limit: '25',
        sortColumn: 'hireDate',
        sortOrder: 'desc',
        searchCol: column,
        searchVal: text,
      })),
    )
  })

  it('answers an empty list when nobody matches, and looks a UUID up by its UUID', async () => {
    const app = await startApp()
    await app.signInAndSync()
    const nobody = (await app.invoke('employees:lookup-service', { text: 'Zzyzx' })) as ServiceLookupResult
    expect(nobody.rows).toEqual([])
    expect(nobody.searched.map((s) => [s.column, s.totalCount])).toEqual([
      ['lastName', 0],
      ['firstName', 0],
    ])

    const someone = app.sandbox.allEmployees()[7] as unknown as EmployeeRow
    const byUuid = (await app.invoke('employees:lookup-service', {
      text: someone.UUID,
    })) as ServiceLookupResult
    expect(byUuid.searched.map((s) => s.column)).toEqual(['UUID'])
    expect(byUuid.rows).toEqual([{ row: someone, saved: true }])
  })

  it('says plainly when the service refuses the column, and refuses empty text before asking', async () => {
    const app = await startApp()
    await app.signInAndSync()
    await expect(
      app.invoke('employees:lookup-service', { text: 'Qwxyz', column: 'nickname' }),
    ).rejects.toMatchObject({
      ipc: {
        code: 'service',
        message:
          "The payroll service refused to search in Nickname (HTTP 400): “searchCol 'nickname' is not a column of the employee list”. Choose “Names and IDs” in “Search in”, or another column.",
      },
    })
    const sent = app.urls.length
    await expect(app.invoke('employees:lookup-service', { text: '   ' })).rejects.toMatchObject({
      ipc: { code: 'validation' },
    })
    expect(app.urls.length).toBe(sent)
    // The clerk's text is personal data: it is in no log line.
    expect(app.logs.join('\n')).not.toContain('Qwxyz')
  })

  it('needs a signed-in clerk, before any request', async () => {
    const app = await startApp()
    const refused = {
      ipc: { code: 'not-signed-in', message: expect.stringMatching(/^Sign in to look employees up/) },
    }
    await expect(app.invoke('employees:lookup-service', { text: 'smith' })).rejects.toMatchObject(refused)
    await app.signInAndSync()
    await app.invoke('auth:sign-out')
    await expect(app.invoke('employees:lookup-service', { text: 'smith' })).rejects.toMatchObject(refused)
    expect(searchQueries(app.urls)).toEqual([])
  })

  it('says the service cannot be reached when it is offline, and leaves the saved employees alone', async () => {
    const app = await startApp()
    await app.signInAndSync()
    await app.sandbox.close()
    await expect(app.invoke('employees:lookup-service', { text: 'smith' })).rejects.toMatchObject({
      ipc: {
        code: 'connection-refused',
        message: expect.stringMatching(/^The connection to 127\.0\.0\.1:\d+ was refused/),
      },
    })
    expect(((await app.invoke('employees:query', { limit: 1 })) as { total: number }).total).toBe(300)
  })
})

describe('the active-employees-only sync scope', () => {
  it('keeps only active employees, and the About sheet of every export made from them says so', async () => {
    const app = await startApp(600)
    const exportXlsx = async (name: string) => {
      app.savePath.next = join(app.dataDir, name)
      const request = { kind: 'view', query: {}, columns: ['lastName', 'employeeStatus'], format: 'xlsx' }
      expect(await app.invoke('export:start', request)).toMatchObject({ status: 'written' })
      return aboutCells(await readXlsx(app.savePath.next))
    }

    expect(await app.signInAndSync()).toMatchObject({ status: 'complete', stored: 600 })
    expect((await exportXlsx('everyone.xlsx')).has('Scope')).toBe(false)

    await app.invoke('settings:update', { syncScope: 'active' })
    const active = app.sandbox.allEmployees().filter((row) => row['employeeStatus'] === 'Active')
    expect(active.length).toBeLessThan(600)
    const summary = await app.sync()
    // The envelope's totalCount is the filtered count, so the completeness proof holds for the active set.
    expect(summary).toMatchObject({ status: 'complete', stored: active.length, totalCount: active.length })
    const statuses = (await app.invoke('employees:query', { limit: 0, facets: true })) as {
      total: number
      facets: { status: Array<{ value: string; count: number }> }
    }
    expect(statuses.total).toBe(active.length)
    expect(statuses.facets.status).toEqual([{ value: 'Active', count: active.length }])

    const about = await exportXlsx('active.xlsx')
    expect(about.get('Scope')?.v).toBe('Active employees only (statusFilter=1)')
  })
})
