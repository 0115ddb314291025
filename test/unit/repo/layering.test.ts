import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'
import { ESLint } from 'eslint'
// @ts-expect-error the layering rule is plain JavaScript, checked by its own @ts-check
import { layerOf } from '../../../eslint-rules/layers.mjs'
import { describe, expect, it } from 'vitest'

// The layering rules are only worth something if they fail the build; lint real snippets at layer paths.
const eslint = new ESLint({ cwd: process.cwd() })

async function errorsFor(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  return (result?.messages ?? []).filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`)
}

describe('layering rules', () => {
  it('fails lint when anything under src/main/core imports electron', async () => {
    const errors = await errorsFor(
      'src/main/core/sync/example.ts',
      "import { app } from 'electron'\nexport const a = app\n",
    )
    expect(errors.join('\n')).toMatch(/rosterdesk\/layers: Bad layering: core may not import 'electron'/)
  })

  it('fails lint for electron subpath imports and for core importing the Electron adapters or the UI', async () => {
    expect(
      await errorsFor('src/main/core/a.ts', "import { x } from 'electron/main'\nexport const a = x\n"),
    ).not.toEqual([])
    expect(
      await errorsFor(
        'src/main/core/a.ts',
        "import { x } from '../shell/adapters/deep-link'\nexport const a = x\n",
      ),
    ).not.toEqual([])
    expect(
      await errorsFor(
        'src/main/core/a.ts',
        "import { x } from '../../renderer/src/App'\nexport const a = x\n",
      ),
    ).not.toEqual([])
  })

  it('lets core import core and the shared contract', async () => {
    const code =
      "import { RosterDeskError } from '../errors'\nimport { invokeChannels } from '../../../shared/ipc-contract'\nexport const a = [RosterDeskError, invokeChannels]\n"
    expect(await errorsFor('src/main/core/sync/a.ts', code)).toEqual([])
  })

  it('keeps the sandbox independent of the client it stands in for', async () => {
    expect(
      await errorsFor('src/main/sandbox/a.ts', "import { x } from '../core/errors'\nexport const a = x\n"),
    ).not.toEqual([])
    expect(
      await errorsFor('src/main/sandbox/a.ts', "import { app } from 'electron'\nexport const a = app\n"),
    ).not.toEqual([])
  })

  it('keeps Node and Electron out of the renderer and the shared contract', async () => {
    expect(
      await errorsFor(
        'src/renderer/src/a.ts',
        "import { readFileSync } from 'node:fs'\nexport const a = readFileSync\n",
      ),
    ).not.toEqual([])
    expect(
      await errorsFor(
        'src/renderer/src/a.ts',
        "import { ipcRenderer } from 'electron'\nexport const a = ipcRenderer\n",
      ),
    ).not.toEqual([])
    expect(
      await errorsFor(
        'src/renderer/src/a.ts',
        "import { x } from '../../main/core/errors'\nexport const a = x\n",
      ),
    ).not.toEqual([])
    expect(
      await errorsFor('src/shared/a.ts', "import { join } from 'node:path'\nexport const a = join\n"),
    ).not.toEqual([])
  })

  it('allows ipcMain only in src/main/shell/ipc', async () => {
    const code = "import { ipcMain } from 'electron'\nexport const a = ipcMain\n"
    expect(await errorsFor('src/main/shell/window.ts', code)).not.toEqual([])
    expect(await errorsFor('src/main/shell/ipc/register.ts', code)).toEqual([])
  })

  it('keeps the runtimes apart: core reaches no host, the hosts no Electron, the shell what the core host gives', async () => {
    const host =
      "import { WorkerHost } from '../../core-host/worker/worker-host'\nexport const a = WorkerHost\n"
    expect((await errorsFor('src/main/core/sync/a.ts', host)).join('\n')).toMatch(
      /core may not import the core-host layer/,
    )
    const electron = "import { net } from 'electron'\nexport const a = net\n"
    // The core worker and the rest of core-host run under plain Node: no Electron module there.
    for (const file of [
      'src/main/core-host/worker/a.ts',
      'src/main/core-host/a.ts',
      'src/main/core/api/a.ts',
    ])
      expect((await errorsFor(file, electron)).join('\n')).toMatch(/may not import 'electron'/)
    // The core process's main thread may: its requests go through Electron's net (decision 037).
    expect(await errorsFor('src/main/core-host/process/a.ts', electron)).toEqual([])
    expect(
      await errorsFor(
        'src/main/core-host/process/a.ts',
        "import type { Net } from 'electron/utility'\nexport type A = Net\n",
      ),
    ).toEqual([])
    // What runs in Electron's main process is the shell's: RemoteAppCore is under shell/, and the core host,
    // whose one Electron exception is its utility process's `net`, never reaches into it.
    const remote =
      "import { RemoteAppCore } from './core-process/remote-app-core'\nexport const a = RemoteAppCore\n"
    expect(await errorsFor('src/main/shell/a.ts', remote)).toEqual([])
    const jobs =
      "import type { ShellCalls } from '../../core-host/process/core-process-jobs'\nexport type A = ShellCalls\n"
    expect(await errorsFor('src/main/shell/core-process/a.ts', jobs)).toEqual([])
    const fromShell =
      "import { RemoteAppCore } from '../../shell/core-process/remote-app-core'\nexport const a = RemoteAppCore\n"
    expect((await errorsFor('src/main/core-host/process/a.ts', fromShell)).join('\n')).toMatch(
      /core-host may not import the shell layer/,
    )
    // The session's composition is core's: it reaches no host, its runners come in through a port.
    expect((await errorsFor('src/main/core/session/a.ts', host)).join('\n')).toMatch(
      /core may not import the core-host layer/,
    )
    expect(await errorsFor('src/main/shell/a.ts', electron)).toEqual([])
    const shell = "import { x } from '../shell/window'\nexport const a = x\n"
    expect((await errorsFor('src/main/cli/a.ts', shell)).join('\n')).toMatch(
      /cli may not import the shell layer/,
    )
  })

  it('has a layer for every source file: each runtime is a folder', () => {
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'src'], {
      encoding: 'utf8',
    })
      .split('\n')
      .filter((file) => /\.(ts|tsx|mts)$/.test(file))
    expect(files.length).toBeGreaterThan(100)
    expect(files.filter((file) => layerOf(resolve(file), process.cwd()) === undefined)).toEqual([])
  })

  it('lets the preload see electron and the shared contract only', async () => {
    expect(
      await errorsFor('src/preload/a.ts', "import { x } from '../main/core/errors'\nexport const a = x\n"),
    ).not.toEqual([])
  })
})

describe("core's own folders", () => {
  const folderError = /rosterdesk-core\/core-folders: Bad core folder use/

  it('keeps SQLite connections in the stores (core/cache, core/snapshot, core/sqlite)', async () => {
    const open = "import { openSqlite } from '../sqlite/sqlite-open'\nexport const a = openSqlite\n"
    expect((await errorsFor('src/main/core/query/a.ts', open)).join('\n')).toMatch(folderError)
    const hostOpen =
      "import { openSqlite } from '../../core/sqlite/sqlite-open'\nexport const a = openSqlite\n"
    expect((await errorsFor('src/main/core-host/worker/a.ts', hostOpen)).join('\n')).toMatch(folderError)
    expect(await errorsFor('src/main/core/snapshot/a.ts', open)).toEqual([])
    const driver = "import Database from 'better-sqlite3-multiple-ciphers'\nexport const a = Database\n"
    expect((await errorsFor('src/main/core/sync/a.ts', driver)).join('\n')).toMatch(folderError)
    expect(await errorsFor('src/main/core/cache/a.ts', driver)).toEqual([])
    // Mapping a storage failure to a clerk's message is not holding a connection.
    const errors = "import { storageError } from '../sqlite/sqlite-open'\nexport const a = storageError\n"
    expect(await errorsFor('src/main/core/query/a.ts', errors)).toEqual([])
  })

  it('lets query read snapshots but never write them', async () => {
    const writer =
      "import { SnapshotWriter } from '../snapshot/snapshot-writer'\nexport const a = SnapshotWriter\n"
    expect((await errorsFor('src/main/core/query/a.ts', writer)).join('\n')).toMatch(folderError)
    expect(await errorsFor('src/main/core/sync/a.ts', writer)).toEqual([])
    const reader =
      "import { SnapshotReader } from '../snapshot/snapshot-reader'\nexport const a = SnapshotReader\n"
    expect(await errorsFor('src/main/core/query/a.ts', reader)).toEqual([])
    // The catalog only as a type: what the engine reads of it, never its writes.
    const catalog =
      "import { openCacheDatabase } from '../cache/cache-database'\nexport const a = openCacheDatabase\n"
    expect((await errorsFor('src/main/core/query/a.ts', catalog)).join('\n')).toMatch(folderError)
    const catalogType =
      "import type { CacheDatabase } from '../cache/cache-database'\nexport type A = CacheDatabase\n"
    expect(await errorsFor('src/main/core/query/a.ts', catalogType)).toEqual([])
  })

  it('lets sync build the search index but not import how queries are answered', async () => {
    const index = "import { SearchIndex } from '../query/search-index'\nexport const a = SearchIndex\n"
    expect(await errorsFor('src/main/core/sync/a.ts', index)).toEqual([])
    const internals = "import { matchRows } from '../query/match-rows'\nexport const a = matchRows\n"
    expect((await errorsFor('src/main/core/sync/a.ts', internals)).join('\n')).toMatch(folderError)
    const engine = "import { QueryEngine } from '../query/query-engine'\nexport const a = QueryEngine\n"
    expect((await errorsFor('src/main/core/sync/a.ts', engine)).join('\n')).toMatch(folderError)
  })

  it('lets the cache use the snapshot store, never the other way, and both the SQLite plumbing', async () => {
    const reader =
      "import { SnapshotReader } from '../snapshot/snapshot-reader'\nexport const a = SnapshotReader\n"
    expect(await errorsFor('src/main/core/cache/a.ts', reader)).toEqual([])
    expect((await errorsFor('src/main/core/sqlite/a.ts', reader)).join('\n')).toMatch(folderError)
    const catalog =
      "import type { CacheDatabase } from '../cache/cache-database'\nexport type A = CacheDatabase\n"
    expect((await errorsFor('src/main/core/snapshot/a.ts', catalog)).join('\n')).toMatch(folderError)
    expect((await errorsFor('src/main/core/sqlite/a.ts', catalog)).join('\n')).toMatch(folderError)
    const runFile =
      "import { RunFileWriter } from '../sqlite/run-file-writer'\nexport const a = RunFileWriter\n"
    expect(await errorsFor('src/main/core/snapshot/a.ts', runFile)).toEqual([])
    expect(await errorsFor('src/main/core/cache/a.ts', runFile)).toEqual([])
  })

  it('keeps the stores below query and sync', async () => {
    const up = "import { QueryEngine } from '../query/query-engine'\nexport const a = QueryEngine\n"
    expect((await errorsFor('src/main/core/snapshot/a.ts', up)).join('\n')).toMatch(folderError)
    expect((await errorsFor('src/main/core/cache/a.ts', up)).join('\n')).toMatch(folderError)
  })
})
