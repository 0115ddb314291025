// @ts-check
import { builtinModules } from 'node:module'
import { dirname, relative, resolve, sep } from 'node:path'
import { importRule } from './import-rule.mjs'

/**
 * Which layer may import which, by resolved path rather than by the import's spelling, so `../adapters/x` and
 * `../../main/adapters/x` are judged alike (the idea of VS Code's code-layering rule, kept at `error`).
 */
const LAYERS = {
  shared: { may: ['shared'], banned: ['electron', 'react', 'react-dom', 'node-builtins'] },
  core: { may: ['core', 'shared'], banned: ['electron', 'react', 'react-dom'] },
  sandbox: { may: ['sandbox'], banned: ['electron', 'react', 'react-dom'] },
  cli: { may: ['cli', 'core', 'shared'], banned: ['electron', 'react', 'react-dom'] },
  ipc: { may: ['ipc', 'core', 'shared'], banned: ['react', 'react-dom'] },
  main: { may: ['main', 'ipc', 'core', 'shared', 'sandbox'], banned: ['react', 'react-dom'] },
  preload: { may: ['preload', 'shared'], banned: ['react', 'react-dom', 'node-builtins'] },
  renderer: { may: ['renderer', 'shared'], banned: ['electron', 'node-builtins'] },
}

const WHY = {
  shared: 'src/shared is loaded by every layer, the sandboxed renderer too',
  core: 'src/main/core runs on plain Node: pass Electron APIs in as adapters',
  sandbox: 'the sandbox stands in for the real service and shares no code with the client it tests',
  cli: 'the CLI runs on plain Node through core',
  ipc: 'IPC handlers wire core to Electron',
  main: 'main wires core to Electron',
  preload: 'the preload sees electron and src/shared only',
  renderer: 'the renderer reaches main only through window.rosterdesk',
}

/** @param {string} file absolute path */
export function layerOf(file, root) {
  const rel = relative(root, file).split(sep).join('/')
  if (rel.startsWith('src/shared/')) return 'shared'
  if (rel.startsWith('src/main/core/')) return 'core'
  if (rel.startsWith('src/main/sandbox/')) return 'sandbox'
  if (rel.startsWith('src/main/cli/')) return 'cli'
  if (rel.startsWith('src/main/ipc/')) return 'ipc'
  if (rel.startsWith('src/main/')) return 'main'
  if (rel.startsWith('src/preload/')) return 'preload'
  if (rel.startsWith('src/renderer/')) return 'renderer'
  return undefined
}

const builtins = new Set(builtinModules)
function isNodeBuiltin(source) {
  return source.startsWith('node:') || builtins.has(source.split('/')[0] ?? '')
}
function packageName(source) {
  const parts = source.split('/')
  return source.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? source)
}

const rule = importRule({
  message: 'Bad layering: {{from}} may not import {{what}} ({{why}}).',
  scope: (file, root) => {
    const from = layerOf(file, root)
    return from === undefined ? undefined : { file, root, from }
  },
  judge: ({ file, root, from }, { source, report }) => {
    const spec = LAYERS[from]
    let bad
    if (source.startsWith('.')) {
      const target = layerOf(resolve(dirname(file), source), root)
      if (target === undefined || !spec.may.includes(target))
        bad = target ? `the ${target} layer` : `'${source}'`
    } else if (isNodeBuiltin(source)) {
      if (spec.banned.includes('node-builtins')) bad = `Node module '${source}'`
    } else if (spec.banned.includes(packageName(source))) {
      bad = `'${source}'`
    }
    if (bad) report({ from, what: bad, why: WHY[from] })
  },
})

export const layersPlugin = { rules: { layers: rule } }
