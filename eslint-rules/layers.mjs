// @ts-check
import { builtinModules } from 'node:module'
import { dirname, relative, resolve, sep } from 'node:path'

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

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    schema: [],
    messages: { bad: 'Bad layering: {{from}} may not import {{what}} ({{why}}).' },
  },
  create(context) {
    const root = context.cwd
    const file = context.physicalFilename
    const from = layerOf(file, root)
    if (!from) return {}
    const spec = LAYERS[from]
    /** @param {import('estree').Node} node @param {unknown} value */
    function check(node, value) {
      if (typeof value !== 'string') return
      let bad
      if (value.startsWith('.')) {
        const target = layerOf(resolve(dirname(file), value), root)
        if (target === undefined || !spec.may.includes(target))
          bad = target ? `the ${target} layer` : `'${value}'`
      } else if (isNodeBuiltin(value)) {
        if (spec.banned.includes('node-builtins')) bad = `Node module '${value}'`
      } else if (spec.banned.includes(packageName(value))) {
        bad = `'${value}'`
      }
      if (bad) context.report({ node, messageId: 'bad', data: { from, what: bad, why: WHY[from] } })
    }
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    }
  },
}

export const layersPlugin = { rules: { layers: rule } }
