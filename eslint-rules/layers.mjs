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
  'core-host': {
    may: ['core-host', 'core', 'shared', 'sandbox'],
    banned: ['electron', 'react', 'react-dom'],
  },
  shell: { may: ['shell', 'core-host', 'core', 'shared'], banned: ['react', 'react-dom'] },
  preload: { may: ['preload', 'shared'], banned: ['react', 'react-dom', 'node-builtins'] },
  renderer: { may: ['renderer', 'shared'], banned: ['electron', 'node-builtins'] },
}

/**
 * The one exception to a layer's bans, by folder, and the only one there may be: the core host process's main
 * thread (core-host/process, Electron's utility process) may import `electron`, because its requests go through
 * Electron's `net` (decision 037). The core worker (core-host/worker) and the process's entry run under plain
 * Node: no Electron module exists on a worker thread. What runs in Electron's main process (RemoteAppCore, the
 * core process's channel) is the shell's, under src/main/shell/core-process, never here.
 */
const ALLOWED = [{ folder: 'src/main/core-host/process/', packages: ['electron'] }]

const WHY = {
  shared: 'src/shared is loaded by every layer, the sandboxed renderer too',
  core: 'src/main/core runs on plain Node: pass Electron APIs in as adapters',
  sandbox: 'the sandbox stands in for the real service and shares no code with the client it tests',
  cli: 'the CLI runs on plain Node through core',
  'core-host':
    'src/main/core-host only hosts the core (the utility process’s entry, the job protocol, the worker and its jobs), under plain Node alike, the Demo sandbox too; only core-host/process/ may use electron (its `net`), never the worker; product logic is core’s (core/session)',
  shell: 'src/main/shell is Electron’s main process: it wires windows, dialogs and secrets to the core host',
  preload: 'the preload sees electron and src/shared only',
  renderer: 'the renderer reaches main only through window.rosterdesk',
}

/** Each layer is one folder: a file's layer is the folder it is in, and a file in none of them has no layer. */
const FOLDERS = [
  ['src/shared/', 'shared'],
  ['src/main/core/', 'core'],
  ['src/main/core-host/', 'core-host'],
  ['src/main/shell/', 'shell'],
  ['src/main/cli/', 'cli'],
  ['src/main/sandbox/', 'sandbox'],
  ['src/preload/', 'preload'],
  ['src/renderer/', 'renderer'],
]

/** @param {string} file absolute path */
export function layerOf(file, root) {
  const rel = relative(root, file).split(sep).join('/')
  return FOLDERS.find(([folder]) => `${rel}/`.startsWith(folder))?.[1]
}

/** Whether `file` lies in a folder of ALLOWED that lets it import `pkg`. */
function allowed(file, root, pkg) {
  const rel = relative(root, file).split(sep).join('/')
  return ALLOWED.some(({ folder, packages }) => rel.startsWith(folder) && packages.includes(pkg))
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
    } else if (spec.banned.includes(packageName(source)) && !allowed(file, root, packageName(source))) {
      bad = `'${source}'`
    }
    if (bad) report({ from, what: bad, why: WHY[from] })
  },
})

export const layersPlugin = { rules: { layers: rule } }
