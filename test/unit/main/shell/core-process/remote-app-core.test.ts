import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { RosterDeskError } from '../../../../../src/main/core/errors'
import type { EventSink } from '../../../../../src/main/core/ipc/dispatch'
import { createLogger, type Logger } from '../../../../../src/main/core/log/logger'
import {
  CORE_MAX_RESTARTS,
  RemoteAppCore,
  shellCallHandlers,
  type RemoteAppCoreOptions,
  type ShellServices,
} from '../../../../../src/main/shell/core-process/remote-app-core'
import {
  coreProcessEntry,
  forkedProcessChannel,
} from '../../../../../src/main/shell/core-process/core-process-channel'
import { MemorySecretStore } from '../../../../../src/main/core/secrets/secret-store'
import type {
  JobChannel,
  JobChannelStarter,
  WorkerEntry,
} from '../../../../../src/main/core-host/worker/worker-host'
import type { CoreProcessConfig } from '../../../../../src/main/core-host/process/core-process-jobs'
import { testCoreProcessEntry } from '../../../../helpers/core-worker-bundle'

/**
 * The app core in a process of its own, as the Electron shell runs it (there through utilityProcess, here through
 * a Node fork of the same entry, bundled as the app's build bundles it: testCoreProcessEntry; the first test forks
 * the source under tsx): requests, events, the shell's calls, a crash and a close.
 */

let entry: WorkerEntry
beforeAll(async () => {
  entry = await testCoreProcessEntry()
})

const dirs: string[] = []
const cores: RemoteAppCore[] = []

afterEach(async () => {
  await Promise.all(cores.splice(0).map((core) => core.close()))
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rosterdesk-core-process-'))
  dirs.push(dir)
  return dir
}

interface Harness {
  readonly options: RemoteAppCoreOptions
  readonly channels: JobChannel[]
  /** Exit codes of the core processes that ended. */
  readonly exits: number[]
  readonly events: Array<{ channel: string; payload: unknown }>
  readonly secrets: MemorySecretStore
  readonly logged: string[]
}

function harness(
  overrides: Partial<RemoteAppCoreOptions> = {},
  dir = dataDir(),
  from: WorkerEntry = entry,
): Harness {
  const channels: JobChannel[] = []
  const exits: number[] = []
  const forked = forkedProcessChannel(from)
  const channel: JobChannelStarter = {
    start(name, logger) {
      const started = forked.start(name, logger)
      channels.push(started)
      started.onExit((code) => exits.push(code))
      return started
    },
  }
  const events: Array<{ channel: string; payload: unknown }> = []
  const sink: EventSink = { emit: (name, payload) => events.push({ channel: name, payload }) }
  const logged: string[] = []
  const logger: Logger = createLogger((level, text) => logged.push(`${level}: ${text}`))
  const secrets = new MemorySecretStore()
  const shell: ShellServices = {
    secrets,
    openExternal: async () => undefined,
    chooseExportPath: async () => undefined,
    revealFile: () => undefined,
  }
  return {
    options: {
      channel,
      config: { appInfo: { name: 'RosterDesk', version: '9.9.9', platform: 'linux' }, dataDir: dir },
      shell,
      events: sink,
      logger,
      ...overrides,
    },
    channels,
    exits,
    events,
    secrets,
    logged,
  }
}

async function started(h: Harness): Promise<RemoteAppCore> {
  const core = await RemoteAppCore.start(h.options)
  cores.push(core)
  return core
}

describe('RemoteAppCore over a forked core process', () => {
  it('answers requests there, keeps secrets here, and passes its events on', async () => {
    // From the source under tsx (coreProcessEntry's fallback, which the benchmarks use); the other tests fork the
    // bundle.
    const h = harness({}, dataDir(), coreProcessEntry())
    const core = await started(h)
    expect(await core.invoke('app:get-info', [])).toMatchObject({
      ok: true,
      value: { name: 'RosterDesk', version: '9.9.9' },
    })
    // Validated there by the same contract: an unknown channel, and bad arguments.
    expect(await core.invoke('nope', [])).toMatchObject({ ok: false, error: { code: 'validation' } })
    expect(await core.invoke('employees:get', [42])).toMatchObject({
      ok: false,
      error: { code: 'validation' },
    })

    // The secret goes through the shell's store (safeStorage in the app), never into the core process's files.
    expect(await core.invoke('settings:set-client-secret', ['s3cret-value'])).toMatchObject({ ok: true })
    expect(await h.secrets.get('clientSecret')).toBe('s3cret-value')
    const state = await core.invoke('auth:get-state', [])
    expect(state).toMatchObject({ ok: true, value: { secretStorage: 'memory-only' } })

    expect(await core.invoke('profiles:create', ['Payroll EU'])).toMatchObject({ ok: true })
    expect(h.events.map((event) => event.channel)).toContain('profiles:changed')
    expect(JSON.stringify(h.logged)).not.toContain('s3cret-value')
  })

  it('starts a fresh core process after a crash, on the same files, and tells the shell', async () => {
    const restarted = vi.fn()
    const h = harness({ onRestarted: restarted })
    const core = await started(h)
    expect(await core.invoke('profiles:create', ['Kept'])).toMatchObject({ ok: true })

    await h.channels[0]!.terminate()
    await vi.waitFor(() => expect(restarted).toHaveBeenCalledTimes(1), { timeout: 20_000, interval: 50 })
    expect(h.channels).toHaveLength(2)
    expect(h.logged.some((line) => line.startsWith('error: The core process stopped unexpectedly'))).toBe(
      true,
    )
    // The new process reads the same files: what the first one saved is there.
    const list = await core.invoke('profiles:list', [])
    expect(JSON.stringify(list)).toContain('Kept')
  }, 30_000)

  it('stops starting a core process that keeps stopping, and says so on every request', async () => {
    const down = vi.fn()
    const h = harness({ maxRestarts: 0, onDown: down })
    const core = await started(h)
    await h.channels[0]!.terminate()
    await vi.waitFor(
      () => expect(h.logged).toContain('error: The core process keeps stopping; not starting it again'),
      { timeout: 10_000, interval: 50 },
    )
    const refused = await core.invoke('app:get-info', [])
    expect(refused).toMatchObject({ ok: false, error: { code: 'internal' } })
    expect(JSON.stringify(refused)).toContain('keeps stopping')
    expect(h.channels).toHaveLength(1)
    expect(down).toHaveBeenCalledTimes(1)
  })

  it('gives up after restarts in a row that never come up, failing what waited with an error, not a cancel', async () => {
    const down = vi.fn()
    const forked = forkedProcessChannel(entry)
    let starts = 0
    let real: JobChannel | undefined
    // The first start is a real core process; every one after it dies before its app core is up.
    const channel: JobChannelStarter = {
      start(name, logger) {
        starts++
        if (starts === 1) return (real = forked.start(name, logger))
        const exits: Array<(code: number) => void> = []
        setTimeout(() => exits.forEach((listener) => listener(1)), 300)
        return {
          postMessage: () => undefined,
          onMessage: () => undefined,
          onError: () => undefined,
          onExit: (listener) => void exits.push(listener),
          ref: () => undefined,
          unref: () => undefined,
          terminate: async () => undefined,
        }
      },
    }
    const h = harness({ channel, onDown: down })
    const core = await started(h)
    expect(await core.invoke('app:get-info', [])).toMatchObject({ ok: true })
    // The real one ends (a crash, as far as RemoteAppCore can tell); the next never comes up.
    await real!.terminate()
    await vi.waitFor(() => expect(starts).toBe(2), { timeout: 10_000, interval: 20 })
    const waiting = await core.invoke('app:get-info', [])
    expect(waiting).toMatchObject({ ok: false, error: { code: 'internal' } })
    await vi.waitFor(() => expect(down).toHaveBeenCalledTimes(1), { timeout: 10_000, interval: 20 })
    // Two restarts in a row that never came up, then no more.
    expect(starts).toBe(3)
    expect(JSON.stringify(await core.invoke('app:get-info', []))).toContain('keeps stopping')
    expect(h.logged.some((line) => line.startsWith('info: The core process was started again'))).toBe(false)
  })

  it('ends a sync whose core process stopped, naming the log, and restarts it boundedly without syncing on launch', async () => {
    // Core processes that come up, begin a sync (the one on launch, say) and stop during it, as one a response
    // header crashed did; `crashes` says how many do, the ones after serve.
    const scripted = (crashes: number) => {
      const configs: CoreProcessConfig[] = []
      const channel: JobChannelStarter = {
        start: () => {
          const started = configs.length
          let answer: (message: unknown) => void = () => undefined
          const exits: Array<(code: number) => void> = []
          return {
            postMessage: (message) => {
              if (message.type === 'cancel') answer({ type: 'done', id: message.id, output: null })
              if (message.type !== 'run') return
              if (message.job === 'invoke')
                answer({
                  type: 'done',
                  id: message.id,
                  output: { ok: true, value: { running: false, employeeCount: 0 } },
                })
              if (message.job !== 'serve') return
              configs.push(message.input as CoreProcessConfig)
              answer({ type: 'progress', id: message.id, value: { type: 'ready' } })
              if (started >= crashes) return
              answer({ type: 'progress', id: message.id, value: { type: 'sync-started', runId: 7 } })
              setImmediate(() => exits.forEach((listener) => listener(70)))
            },
            onMessage: (listener) => void (answer = listener),
            onError: () => undefined,
            onExit: (listener) => void exits.push(listener),
            ref: () => undefined,
            unref: () => undefined,
            terminate: async () => undefined,
          }
        },
      }
      return { channel, configs }
    }
    const logFile = '/home/clerk/.config/RosterDesk/logs/main.log'
    const finished = (h: Harness) => h.events.filter((event) => event.channel === 'sync:finished')

    // Every one stops: the first and CORE_MAX_RESTARTS more, then no more, and every request says why and where.
    const looping = scripted(Infinity)
    const down = vi.fn()
    const h = harness({ channel: looping.channel, onDown: down, logFile })
    const core = await started(h)
    await vi.waitFor(() => expect(down).toHaveBeenCalledTimes(1), { timeout: 10_000, interval: 20 })
    expect(looping.configs).toHaveLength(1 + CORE_MAX_RESTARTS)
    // Only processes replacing one that stopped skip the sync on launch.
    expect(looping.configs.map((config) => config.replacesStopped === true)).toEqual([
      false,
      true,
      true,
      true,
    ])
    const refused = await core.invoke('sync:get-status', [])
    expect(refused).toMatchObject({ ok: false, error: { code: 'internal' } })
    expect(JSON.stringify(refused)).toContain(
      `keeps stopping. Quit and start RosterDesk again; if it keeps happening, send the log to support: ${logFile}`,
    )
    // Each stop ended its sync for the window as failed, naming the log.
    expect(finished(h)).toHaveLength(1 + CORE_MAX_RESTARTS)
    expect(finished(h)[0]!.payload).toMatchObject({
      id: 7,
      status: 'failed',
      errorCode: 'internal',
      error: expect.stringContaining(
        `stopped unexpectedly during it. Nothing was changed. Try again; if it happens again, send the log to support: ${logFile}`,
      ),
    })

    // One stops, the next serves: the window, reloaded meanwhile, hears of the ended sync once more as it asks.
    const once = scripted(1)
    const restarted = vi.fn()
    const h2 = harness({ channel: once.channel, onRestarted: restarted, logFile })
    const core2 = await started(h2)
    await vi.waitFor(() => expect(restarted).toHaveBeenCalledTimes(1), { timeout: 10_000, interval: 20 })
    expect(finished(h2)).toHaveLength(1)
    expect(await core2.invoke('sync:get-status', [])).toMatchObject({ ok: true })
    expect(finished(h2)).toHaveLength(2)
    expect(finished(h2)[1]!.payload).toEqual(finished(h2)[0]!.payload)
    await core2.invoke('sync:get-status', [])
    expect(finished(h2)).toHaveLength(2)
  })

  it('rejects its start with the reason when the app core cannot start, and ends the process', async () => {
    const parent = dataDir()
    const file = join(parent, 'not-a-folder')
    writeFileSync(file, 'x')
    const h = harness({}, join(file, 'data'))
    await expect(RemoteAppCore.start(h.options)).rejects.toBeInstanceOf(RosterDeskError)
    expect(h.channels).toHaveLength(1)
    await vi.waitFor(() => expect(h.exits).toHaveLength(1))
  })

  it('can be closed while it starts (a quit meanwhile): the start is cancelled and the process ends', async () => {
    const h = harness()
    const core = new RemoteAppCore(h.options)
    const starting = core.start()
    await core.close()
    await expect(starting).rejects.toMatchObject({ code: 'cancelled' })
    await vi.waitFor(() => expect(h.exits).toHaveLength(1))
    expect(h.channels).toHaveLength(1)
    expect(h.logged.some((line) => /stopped unexpectedly/.test(line))).toBe(false)
  })

  it('gives up on a core process that never answers, ending it, rather than letting requests wait forever', async () => {
    let ended = 0
    const silent: JobChannelStarter = {
      start: () => ({
        postMessage: () => undefined,
        onMessage: () => undefined,
        onError: () => undefined,
        onExit: () => undefined,
        ref: () => undefined,
        unref: () => undefined,
        terminate: async () => void ended++,
      }),
    }
    const h = harness({ channel: silent, startTimeoutMs: 300 })
    await expect(RemoteAppCore.start(h.options)).rejects.toThrow(/did not start/)
    expect(ended).toBe(1)
  })

  it('waits for a move of the caches however long it takes, then counts the rest of the start again', async () => {
    // A core process that reports what serve-core-process.ts reports around a move across volumes (decision 046),
    // then waits for the test: main's start timer, faked, runs far past its limit meanwhile.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      // Each core process started answers through its own host; `report` speaks for the latest one.
      let report: (value: unknown) => void = () => undefined
      let serving = false
      const scripted: JobChannelStarter = {
        start: () => {
          let answer: (message: unknown) => void = () => undefined
          return {
            postMessage: (message) => {
              // A quit cancels serve; the app core closes and the job ends.
              if (message.type === 'cancel') answer({ type: 'done', id: message.id, output: null })
              if (message.type !== 'run' || message.job !== 'serve') return
              const id = message.id
              report = (value) => answer({ type: 'progress', id, value })
              serving = true
              report({ type: 'moving-caches' })
            },
            onMessage: (listener) => void (answer = listener),
            onError: () => undefined,
            onExit: () => undefined,
            ref: () => undefined,
            unref: () => undefined,
            terminate: async () => undefined,
          }
        },
      }

      const moving = harness({ channel: scripted, startTimeoutMs: 1_000 })
      let outcome: string | undefined
      const start = RemoteAppCore.start(moving.options).then(
        (core) => ((outcome = 'started'), cores.push(core)),
        (error: unknown) => (outcome = String(error)),
      )
      await vi.advanceTimersByTimeAsync(60_000)
      expect(serving).toBe(true)
      expect(outcome).toBeUndefined()
      expect(moving.logged).toContain(
        'info: The data engine is moving the saved employees to this computer’s own folder',
      )
      report({ type: 'caches-settled' })
      report({ type: 'ready' })
      await start
      expect(outcome).toBe('started')

      // After the move, the rest of the start is timed again.
      const stuck = harness({ channel: scripted, startTimeoutMs: 1_000 })
      const failing = expect(RemoteAppCore.start(stuck.options)).rejects.toThrow(/did not start/)
      await vi.advanceTimersByTimeAsync(0)
      report({ type: 'caches-settled' })
      await vi.advanceTimersByTimeAsync(1_000)
      await failing
    } finally {
      vi.useRealTimers()
    }
  })

  it('closes the app core before the process ends, and answers nothing after', async () => {
    const h = harness()
    const core = await started(h)
    await core.close()
    expect(h.exits).toHaveLength(1)
    expect(h.logged.some((line) => /stopped unexpectedly/.test(line))).toBe(false)
    expect(await core.invoke('app:get-info', [])).toEqual({
      ok: false,
      error: { code: 'busy', message: 'RosterDesk is closing.' },
    })
    expect(await core.handleCallbackUrl('com.rosterdesk.app:/oauth/callback?code=x&state=y')).toBe(false)
    // Nothing started a core process again.
    expect(h.channels).toHaveLength(1)
  })
})

describe('shellCallHandlers', () => {
  const signal = new AbortController().signal
  const opened: string[] = []
  const secrets = new MemorySecretStore()
  const calls = shellCallHandlers({
    secrets,
    openExternal: async (url) => void opened.push(url),
    chooseExportPath: async (defaultPath) => `${defaultPath}.chosen`,
    revealFile: () => undefined,
  })

  it('opens only web addresses in the browser', async () => {
    await calls['open-external']('https://payroll.example/oauth/authorize?x=1', signal)
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'not a url', 'smb://host/share']) {
      await expect(calls['open-external'](url, signal)).rejects.toThrow(/non-web address/)
    }
    expect(opened).toEqual(['https://payroll.example/oauth/authorize?x=1'])
  })

  it('reads and writes only known secret names, and only text', async () => {
    await calls['secret-set']({ key: 'profile:p-2:accessToken', value: 'abc' }, signal)
    expect(await calls['secret-get']('profile:p-2:accessToken', signal)).toEqual({ value: 'abc' })
    await expect(calls['secret-get']('../settings' as never, signal)).rejects.toThrow(/unknown secret name/)
    await expect(calls['secret-set']({ key: 'accessToken', value: 42 as never }, signal)).rejects.toThrow(
      /text/,
    )
    await expect(calls['print-page']({ html: '<p>', title: 't' }, signal)).rejects.toThrow(/cannot print/)
    expect(
      await calls['choose-export-path']({ defaultPath: '/x/roster.xlsx', format: 'xlsx' }, signal),
    ).toEqual({
      value: '/x/roster.xlsx.chosen',
    })
  })

  it('writes the clipboard only with a copy’s text and HTML, and only where the shell has one', async () => {
    const copy = { text: 'a\tb\r\n', html: '<table></table>' }
    await expect(calls['clipboard-write'](copy, signal)).rejects.toThrow(/no clipboard/)
    const written: unknown[] = []
    const withClipboard = shellCallHandlers({
      secrets,
      openExternal: async () => undefined,
      chooseExportPath: async () => undefined,
      revealFile: () => undefined,
      writeClipboard: async (content) => void written.push(content),
    })
    expect(await withClipboard['clipboard-write'](copy, signal)).toEqual({ value: null })
    await expect(withClipboard['clipboard-write']({ text: 'a', html: 3 } as never, signal)).rejects.toThrow(
      /its text and its HTML/,
    )
    await expect(withClipboard['clipboard-write'](null as never, signal)).rejects.toThrow(
      /its text and its HTML/,
    )
    expect(written).toEqual([copy])
  })

  it('opens the save dialog for a diagnostics zip too, for no other kind, and says what only main knows', async () => {
    expect(await calls['choose-export-path']({ defaultPath: '/x/d.zip', format: 'zip' }, signal)).toEqual({
      value: '/x/d.zip.chosen',
    })
    await expect(
      calls['choose-export-path']({ defaultPath: '/x/d.exe', format: 'exe' as never }, signal),
    ).rejects.toThrow(/a path and a file kind/)
    expect(await calls['shell-facts'](null, signal)).toEqual({
      value: { installKind: 'not known here', updateState: 'not known here' },
    })
    const facts = { installKind: 'MSI', updateState: 'Updates are off: IT updates RosterDesk' }
    const withFacts = shellCallHandlers({
      secrets,
      openExternal: async () => undefined,
      chooseExportPath: async () => undefined,
      revealFile: () => undefined,
      facts: () => facts,
    })
    expect(await withFacts['shell-facts'](null, signal)).toEqual({ value: facts })
  })
})
