import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Conf from 'conf'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { IPC_ERROR_CODES } from '../../../../../src/shared/ipc-error-codes'
import { invokeChannels, type InvokeChannel } from '../../../../../src/shared/ipc-contract'
import { createAppCore, type AppCore } from '../../../../../src/main/core/session/create-app-core'
import { coreWorkerRunners } from '../../../../../src/main/core-host/worker/worker-runners'
import { dispatchInvoke } from '../../../../../src/main/core/ipc/dispatch'
import { silentLogger } from '../../../../../src/main/core/log/logger'
import { MemorySecretStore } from '../../../../../src/main/core/secrets/secret-store'
import { SettingsStore } from '../../../../../src/main/core/settings/settings-store'
import type { SandboxHandle } from '../../../../../src/main/sandbox'
import { answerConsent } from '../../../../helpers/consent'
import { startTestSandbox } from '../../../../helpers/sandbox'
import { testCoreWorkerEntry } from '../../../../helpers/core-worker-bundle'
import { TEST_CACHE_KEY } from '../../../../helpers/test-cache-key'

/**
 * The IPC surface under abuse: every invoke channel receives random, malformed and oversized argument lists
 * through the real dispatch over a real app core (signed in, synced, settings in a real file). Each answer must
 * be a typed IpcResult (never a throw), and a refused request must change nothing: the settings file's bytes,
 * the profiles, the cache's state.
 */

const RUNS_PER_CHANNEL = 220
const MB = 1024 * 1024

/** Values a compromised renderer could send: anything structured clone carries, plus the awkward cases. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.anything({
      maxDepth: 3,
      withBigInt: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withTypedArray: true,
      withNullPrototype: true,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('x'.repeat(2 * MB), '\u202e'.repeat(100_000), '\0'.repeat(70_000)),
  },
  { weight: 1, arbitrary: fc.constant(Array.from({ length: 100_000 }, (_, i) => i)) },
  { weight: 1, arbitrary: fc.constant(deeplyNested(5_000)) },
  { weight: 1, arbitrary: fc.constantFrom(Number.NaN, Infinity, -0, 2 ** 53, -1, 1e308) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('p1', 'p999', 'v1', '', '__proto__', 'constructor', '../../etc/passwd'),
  },
  {
    weight: 2,
    arbitrary: fc.record(
      {
        __proto__: fc.anything(),
        constructor: fc.anything(),
        kind: fc.constantFrom('view', 'roster', 'changes', 'x'),
        format: fc.constantFrom('csv', 'xlsx', 'pdf', ''),
        query: fc.anything({ maxDepth: 2 }),
        columns: fc.array(fc.string(), { maxLength: 5 }),
        text: fc.string({ maxLength: 300 }),
        limit: fc.oneof(fc.integer(), fc.double()),
        offset: fc.oneof(fc.integer(), fc.double()),
        pageSize: fc.oneof(fc.integer(), fc.string()),
        baseUrl: fc.oneof(fc.webUrl(), fc.string()),
        environment: fc.constantFrom('demo', 'staging', 'production', 'evil'),
      },
      { requiredKeys: [] },
    ),
  },
)

function deeplyNested(depth: number): unknown {
  let value: unknown = 'bottom'
  for (let i = 0; i < depth; i++) value = { a: [value] }
  return value
}

const argumentLists = fc.oneof(
  fc.array(hostileValue, { maxLength: 4 }),
  hostileValue.map((value) => value as unknown[]),
  fc.constant(undefined as unknown as unknown[]),
  fc.constant(null as unknown as unknown[]),
)

describe('the IPC surface under abuse (fast-check through the real dispatch)', () => {
  let core: AppCore
  let sandbox: SandboxHandle
  let dataDir: string
  let settingsFile: string
  let approveSignIn = true

  beforeAll(async () => {
    sandbox = await startTestSandbox({ size: 150 })
    dataDir = mkdtempSync(join(tmpdir(), 'rosterdesk-ipc-abuse-'))
    const store = new Conf<Record<string, unknown>>({
      cwd: dataDir,
      configName: 'settings',
      clearInvalidConfig: false,
    })
    settingsFile = store.path
    const backend = {
      get: (key: string) => store.get(key),
      set: (key: string, value: unknown) => store.set(key, value),
    }
    core = await createAppCore({
      cacheKey: TEST_CACHE_KEY,
      appInfo: { name: 'RosterDesk', version: '0.1.0', platform: 'linux' },
      dataDir,
      settings: new SettingsStore(backend),
      secrets: new MemorySecretStore(),
      fetch: (input, init) => fetch(input, init),
      openExternal: async (url) => {
        // Later sign-ins (an empty argument list is a valid one) find no browser, so none waits for a callback.
        if (!approveSignIn) throw new Error('No browser in this test.')
        const callback = await answerConsent(url, 'approve')
        setTimeout(() => void core.handleCallbackUrl(callback), 0)
      },
      demo: {
        environment: { baseUrl: sandbox.baseUrl, ...sandbox.credentials },
        close: async () => undefined,
      },
      events: { emit: () => undefined },
      logger: silentLogger,
      runners: coreWorkerRunners({
        logger: silentLogger,
        entry: await testCoreWorkerEntry(),
        cacheKey: TEST_CACHE_KEY,
      }),
      // A save dialog the clerk cancels: an export that gets through validation writes nothing.
      chooseExportPath: async () => undefined,
      revealFile: () => undefined,
    })
    const call = (channel: InvokeChannel, ...args: unknown[]) => dispatchInvoke(core.handlers, channel, args)
    expect(await call('auth:sign-in')).toMatchObject({ ok: true, value: { status: 'signed-in' } })
    expect(await call('sync:start')).toMatchObject({ ok: true })
    await vi.waitFor(
      async () => {
        const status = await call('sync:get-status')
        expect(status).toMatchObject({ ok: true, value: { lastComplete: { stored: 150 } } })
      },
      { timeout: 30_000 },
    )
    approveSignIn = false
  }, 60_000)

  afterAll(async () => {
    await core.close()
    await sandbox.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  /** What a refused request must leave as it was. */
  async function state(): Promise<string> {
    const profiles = await core.handlers['profiles:list']()
    const status = await core.handlers['sync:get-status']()
    return JSON.stringify({
      settings: readFileSync(settingsFile, 'utf8'),
      profiles,
      lastRun: status.lastRun?.id,
      lastComplete: status.lastComplete?.id,
      employees: core.queries.query({ offset: 0, limit: 0 }).total,
    })
  }

  it('answers every channel with a typed IpcResult, never a throw, and a refusal changes nothing', async () => {
    const codes: Set<string> = new Set(IPC_ERROR_CODES)
    const refusals = new Map<string, number>()
    let calls = 0
    for (const channel of [...Object.keys(invokeChannels), 'nope:nothing', '__proto__', ''] as string[]) {
      await fc.assert(
        fc.asyncProperty(argumentLists, async (args) => {
          const before = await state()
          const result = await dispatchInvoke(core.handlers, channel, args)
          calls++
          expect(typeof result.ok).toBe('boolean')
          if (result.ok) return
          expect(codes.has(result.error.code), result.error.code).toBe(true)
          expect(typeof result.error.message).toBe('string')
          expect(result.error.message.length).toBeLessThan(600)
          refusals.set(channel, (refusals.get(channel) ?? 0) + 1)
          expect(await state()).toBe(before)
        }),
        { numRuns: RUNS_PER_CHANNEL, endOnFailure: true },
      )
    }
    expect(calls).toBeGreaterThan(8_000)
    // Nearly everything random is refused, on every channel.
    for (const channel of Object.keys(invokeChannels)) {
      expect(refusals.get(channel) ?? 0, channel).toBeGreaterThan(RUNS_PER_CHANNEL / 2)
    }
    // And the core still works afterwards.
    const after = await dispatchInvoke(core.handlers, 'employees:query', [{ limit: 3 }])
    expect(after).toMatchObject({ ok: true, value: { total: 150 } })
  }, 120_000)
})
