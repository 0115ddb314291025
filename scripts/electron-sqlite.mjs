#!/usr/bin/env node
// Makes better-sqlite3 loadable by Electron during development (`npm start` runs this before electron-vite dev).
//
// node_modules/better-sqlite3 is built for Node's ABI (tests and the CLI use it); Electron needs its own build.
// This script fetches (prebuild-install) or compiles (node-gyp) an Electron-ABI better_sqlite3.node into
//   native/electron/<electronVersion>-<platform>-<arch>/better_sqlite3.node
// working on a temporary copy of the package, so node_modules is never touched and tests keep working. The
// Electron main process passes that path to openCacheDatabase(path, { nativeBinding }).
//
// Exits 0 at once when the binding is already there. Never run by `npm ci` or by the tests.
//
// Options: --print-path (print the target path and exit), --root DIR, --electron-version V.

import { spawnSync } from 'node:child_process'
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const HEADERS_URL = 'https://electronjs.org/headers'

/** Same formula as electronBindingPath in src/main/core/cache/native-binding.ts. */
export function bindingPath(root, electronVersion, platform, arch) {
  return join(root, 'native', 'electron', `${electronVersion}-${platform}-${arch}`, 'better_sqlite3.node')
}

function parseArgs(argv) {
  const options = {
    printPath: false,
    root: resolve(dirname(fileURLToPath(import.meta.url)), '..'),
    electronVersion: undefined,
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--print-path') options.printPath = true
    else if (arg === '--root') options.root = resolve(argv[++i] ?? '.')
    else if (arg === '--electron-version') options.electronVersion = argv[++i]
    else throw new Error(`unknown option ${arg}`)
  }
  return options
}

function installedElectronVersion(root) {
  const manifest = join(root, 'node_modules', 'electron', 'package.json')
  if (!existsSync(manifest)) {
    throw new Error(`Electron is not installed (${manifest} is missing). Run "npm ci" first.`)
  }
  const version = JSON.parse(readFileSync(manifest, 'utf8')).version
  if (typeof version !== 'string' || version === '') throw new Error(`${manifest} names no version.`)
  return version
}

/** The environment for the build tools: a leaked npm_config_nodedir would make node-gyp build for Node again. */
function childEnv() {
  return Object.fromEntries(
    Object.entries(process.env).filter(([key]) => key.toLowerCase() !== 'npm_config_nodedir'),
  )
}

function run(command, args, cwd) {
  const result = spawnSync(process.execPath, [command, ...args], { cwd, env: childEnv(), stdio: 'inherit' })
  if (result.error) return result.error.message
  return result.status === 0 ? null : `exit code ${result.status}`
}

function build(root, electronVersion, target) {
  const packageDir = join(root, 'node_modules', 'better-sqlite3')
  if (!existsSync(join(packageDir, 'package.json')))
    throw new Error(`${packageDir} is missing. Run "npm ci" first.`)
  const work = mkdtempSync(join(tmpdir(), 'rosterdesk-electron-sqlite-'))
  try {
    const copy = join(work, 'better-sqlite3')
    // The copy leaves out the Node-ABI build, so whatever lands in build/Release is the Electron one.
    cpSync(packageDir, copy, {
      recursive: true,
      filter: (source) => !source.startsWith(join(packageDir, 'build')),
    })
    const built = join(copy, 'build', 'Release', 'better_sqlite3.node')
    const flags = [`--runtime=electron`, `--target=${electronVersion}`, `--arch=${process.arch}`]
    const failures = []
    const prebuild = join(root, 'node_modules', 'prebuild-install', 'bin.js')
    if (existsSync(prebuild)) {
      const problem = run(prebuild, [...flags, `--platform=${process.platform}`], copy)
      if (problem !== null || !existsSync(built)) failures.push(`prebuild-install: ${problem ?? 'no binary'}`)
    } else failures.push('prebuild-install is not installed')
    if (!existsSync(built)) {
      const gyp = join(root, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js')
      if (existsSync(gyp)) {
        const problem = run(gyp, ['rebuild', '--release', ...flags, `--dist-url=${HEADERS_URL}`], copy)
        if (problem !== null || !existsSync(built)) failures.push(`node-gyp: ${problem ?? 'no binary'}`)
      } else failures.push('node-gyp is not installed')
    }
    if (!existsSync(built) || statSync(built).size === 0) {
      throw new Error(
        `${failures.join('; ')}. Check the network (prebuilt binaries come from GitHub) or install the build tools ` +
          '(Python 3 and a C++ compiler; on Windows, Visual Studio "Desktop development with C++"), then run ' +
          '"node scripts/electron-sqlite.mjs" again.',
      )
    }
    mkdirSync(dirname(target), { recursive: true })
    // Copy then rename, so an interrupted run never leaves a half-written binding that looks ready.
    const partial = `${target}.partial`
    copyFileSync(built, partial)
    renameSync(partial, target)
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

function main() {
  const options = parseArgs(process.argv.slice(2))
  const electronVersion = options.electronVersion ?? installedElectronVersion(options.root)
  const target = bindingPath(options.root, electronVersion, process.platform, process.arch)
  if (options.printPath) {
    process.stdout.write(`${target}\n`)
    return
  }
  if (existsSync(target) && statSync(target).size > 0) {
    process.stdout.write(`better-sqlite3 for Electron ${electronVersion} is ready (${target}).\n`)
    return
  }
  process.stdout.write(
    `Getting better-sqlite3 for Electron ${electronVersion} (${process.platform}-${process.arch})…\n`,
  )
  build(options.root, electronVersion, target)
  process.stdout.write(`better-sqlite3 for Electron ${electronVersion} is ready (${target}).\n`)
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main()
  } catch (error) {
    process.stderr.write(
      `RosterDesk could not prepare better-sqlite3 for Electron: ${error instanceof Error ? error.message : String(error)}\n`,
    )
    process.exit(1)
  }
}
