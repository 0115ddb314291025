// @ts-check
import { dirname, relative, resolve, sep } from 'node:path'
import { importRule } from './import-rule.mjs'

/**
 * Which of core's own folders may use which, on top of the layers (layers.mjs). Each folder owns its data: the
 * snapshot store (core/snapshot) holds every read and write of a snapshot file, the cache (core/cache) those of
 * the catalog and change logs, both over the SQLite plumbing of core/sqlite (connections, run files); nothing else
 * opens SQLite. The cache's catalog opens and creates snapshots, so the cache uses the snapshot store and never
 * the other way; core/sqlite uses neither. Query only reads; sync builds the search index but does not reach into
 * how queries are answered.
 */
const STORES = ['cache', 'snapshot', 'sqlite']

/**
 * @typedef {{
 *   from: (folder: string) => boolean,
 *   target: (path: string) => boolean,
 *   allowNames?: readonly string[],
 *   typeOnly?: boolean,
 *   why: string,
 * }} FolderRule
 */

/** @type {readonly FolderRule[]} */
const RULES = [
  {
    from: (folder) => !STORES.includes(folder),
    target: (path) => path === 'package:better-sqlite3-multiple-ciphers',
    why: 'only the stores (core/cache, core/snapshot, core/sqlite) hold SQLite connections; use their typed reads and writes',
  },
  {
    from: (folder) => !STORES.includes(folder),
    target: (path) => path === 'sqlite/sqlite-open',
    allowNames: ['storageError'],
    why: 'only the stores (core/cache, core/snapshot, core/sqlite) open SQLite; others may only map its errors',
  },
  {
    from: (folder) => folder === 'query',
    target: (path) =>
      [
        'snapshot/snapshot-writer',
        'sqlite/run-file-writer',
        'cache/snapshot-files',
        'cache/change-log-file',
      ].includes(path),
    why: 'query reads snapshots and never writes them; the sync writes through the snapshot store',
  },
  {
    from: (folder) => folder === 'query',
    target: (path) => path === 'cache/cache-database',
    typeOnly: true,
    why: 'query reads the current snapshot; the catalog’s writes belong to the sync',
  },
  {
    from: (folder) => folder === 'sync',
    target: (path) =>
      path.startsWith('query/') && !['query/search-index', 'query/index-encoder'].includes(path),
    why: 'sync builds the search index (query/search-index, query/index-encoder) but not how queries are answered',
  },
  {
    from: (folder) => folder === 'snapshot' || folder === 'sqlite',
    target: (path) => path.startsWith('cache/'),
    why: 'the cache’s catalog opens and creates snapshots, so the snapshot store and the SQLite plumbing below it never use the cache',
  },
  {
    from: (folder) => folder === 'sqlite',
    target: (path) => path.startsWith('snapshot/'),
    why: 'core/sqlite is the plumbing both stores stand on; it uses neither',
  },
  {
    from: (folder) => STORES.includes(folder),
    target: (path) => /^(query|sync|export|app|session)\//.test(path),
    why: 'the stores sit below query, sync, the session and the rest; they know files, not what is done with them',
  },
]

/**
 * The folder under src/main/core a file is in ('' for core's own top-level files), 'core-host' for the hosts in
 * src/main/core-host (held to the same store rules: they run core, they open no SQLite), or undefined.
 */
function coreFolderOf(file, root) {
  const rel = relative(root, file).split(sep).join('/')
  if (rel.startsWith('src/main/core-host/')) return 'core-host'
  if (!rel.startsWith('src/main/core/')) return undefined
  const parts = rel.slice('src/main/core/'.length).split('/')
  return parts.length > 1 ? parts[0] : ''
}

/** A core-relative module path without extension ('query/search-index'), or undefined outside core. */
function coreModuleOf(path, root) {
  const rel = relative(root, path).split(sep).join('/')
  if (!rel.startsWith('src/main/core/')) return undefined
  return rel.slice('src/main/core/'.length).replace(/\.(ts|mts|js|mjs)$/, '')
}

const rule = importRule({
  message: 'Bad core folder use: {{from}} may not use {{what}} ({{why}}).',
  scope: (file, root) => {
    const folder = coreFolderOf(file, root)
    return folder === undefined ? undefined : { file, root, folder }
  },
  judge: ({ file, root, folder }, { source, names, typeOnly, report }) => {
    const target = source.startsWith('.')
      ? coreModuleOf(resolve(dirname(file), source), root)
      : `package:${source}`
    if (target === undefined) return
    for (const ruleSpec of RULES) {
      if (!ruleSpec.from(folder) || !ruleSpec.target(target)) continue
      if (ruleSpec.typeOnly && typeOnly) continue
      const allowed = ruleSpec.allowNames
      if (allowed && names.every((name) => allowed.includes(name))) continue
      const what = target.startsWith('package:') ? `'${source}'` : `core/${target}`
      report({
        from: folder === 'core-host' ? 'src/main/core-host' : `core/${folder || '(top)'}`,
        what,
        why: ruleSpec.why,
      })
    }
  },
})

export const coreFoldersPlugin = { rules: { 'core-folders': rule } }
