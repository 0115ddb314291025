import { ESLint } from 'eslint'
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
        "import { x } from '../adapters/deep-link'\nexport const a = x\n",
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

  it('allows ipcMain only in src/main/ipc', async () => {
    const code = "import { ipcMain } from 'electron'\nexport const a = ipcMain\n"
    expect(await errorsFor('src/main/window.ts', code)).not.toEqual([])
    expect(await errorsFor('src/main/ipc/register.ts', code)).toEqual([])
  })

  it('lets the preload see electron and the shared contract only', async () => {
    expect(
      await errorsFor('src/preload/a.ts', "import { x } from '../main/core/errors'\nexport const a = x\n"),
    ).not.toEqual([])
  })
})
