/**
 * `npm run audit:electron`: runs Electronegativity (Doyensec's Electron security scanner) over src/ and fails the
 * build on every HIGH finding, and every MEDIUM finding at FIRM or CERTAIN confidence, that
 * electronegativity.config.json does not justify. The rules live in electronegativity-findings.mjs.
 *
 * The tool runs in this process through its documented run() API rather than its CLI, because only run() reports
 * the files the tool failed to parse (the CLI prints them in red and still writes a clean report, and its CSV and
 * SARIF outputs leave them out): a file it cannot read would otherwise pass with no findings at all.
 */
import Module, { createRequire } from 'node:module'
import { readdir, readFile } from 'node:fs/promises'
import { dirname, extname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  evaluate,
  findSuppressions,
  parseJustifications,
  report,
  toFinding,
} from './electronegativity-findings.mjs'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const SCANNED = join(ROOT, 'src')
const CONFIG_NAME = 'electronegativity.config.json'
/** The files the tool reads (its util/file.js), searched for its suppression comment. */
const SOURCE_EXTENSIONS = new Set(['.js', '.jsx', '.ts', '.tsx', '.html', '.htm'])
/**
 * Needs the network (Electron's release list) and only reports on a package.json inside the scanned folder, which
 * src/ has none of; the Electron version is the installed one, passed below.
 */
const EXCLUDED_CHECKS = ['availablesecurityfixesglobalcheck']

const require = createRequire(import.meta.url)

/**
 * The tool downloads its message translations (and Electron's release list) on every run. A security gate must
 * neither depend on the network nor print what a remote file says, and CI has no network: its HTTP client is
 * replaced by one that fails at once, so the tool uses its bundled English messages.
 */
function keepToolOffline() {
  const toolRequire = createRequire(require.resolve('@doyensec/electronegativity'))
  const gotPath = toolRequire.resolve('got')
  const refuse = () => Promise.reject(new Error('the Electronegativity gate makes no network requests'))
  const offline = Object.assign(refuse, { get: refuse, head: refuse })
  const stub = new Module(gotPath)
  stub.filename = gotPath
  stub.loaded = true
  stub.exports = offline
  require.cache[gotPath] = stub
  process.env.LANG = 'en-US'
}

/** The tool announces the translation download keepToolOffline refused; that is by design, so it is not shown. */
async function quietOfflineNotice(work) {
  const log = console.log
  console.log = (...args) => {
    if (args[0] !== 'Could not retrieve updated translations for the current locale') log(...args)
  }
  try {
    return await work()
  } finally {
    console.log = log
  }
}

async function sourceFiles(dir) {
  const files = []
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory() && entry.name !== 'node_modules') files.push(...(await sourceFiles(path)))
    else if (entry.isFile() && SOURCE_EXTENSIONS.has(extname(entry.name).toLowerCase())) files.push(path)
  }
  return files
}

const toRepositoryPath = (path) => relative(ROOT, path).split('\\').join('/')

async function readJustifications() {
  let text
  try {
    text = await readFile(join(ROOT, CONFIG_NAME), 'utf8')
  } catch (error) {
    return { entries: [], problems: [`${CONFIG_NAME} could not be read: ${error.message}`] }
  }
  try {
    const { entries, problems } = parseJustifications(JSON.parse(text))
    return { entries, problems: problems.map((problem) => `${CONFIG_NAME}: ${problem}`) }
  } catch (error) {
    return { entries: [], problems: [`${CONFIG_NAME} is not valid JSON: ${error.message}`] }
  }
}

async function main() {
  keepToolOffline()
  const run = require('@doyensec/electronegativity')
  const toolVersion = require('@doyensec/electronegativity/package.json').version
  // Without it the tool assumes Electron 0.1 and judges every default by that version's.
  const electronVersion = require('electron/package.json').version

  const problems = []
  const { entries, problems: configProblems } = await readJustifications()
  problems.push(...configProblems)

  // The tool drops findings under an `eng-disable` comment before reporting them; here only the config excuses.
  for (const file of await sourceFiles(SCANNED)) {
    for (const hit of findSuppressions(toRepositoryPath(file), await readFile(file, 'utf8'))) {
      problems.push(
        `${hit}: eng-disable hides findings from this gate; justify them in ${CONFIG_NAME} instead`,
      )
    }
  }

  console.log(
    `Electronegativity ${toolVersion} over src/, assuming the installed Electron ${electronVersion}`,
  )
  const result = await quietOfflineNotice(() =>
    run({
      input: SCANNED,
      electronVersionOverride: electronVersion,
      excludeFromScan: EXCLUDED_CHECKS,
      isRelative: false,
    }),
  )
  if (!(result.atomicChecks > 0 && result.globalChecks > 0)) {
    problems.push(
      `Electronegativity loaded no checks (${result.atomicChecks} atomic, ${result.globalChecks} global)`,
    )
  }
  for (const error of result.errors) {
    problems.push(
      `Electronegativity could not parse ${toRepositoryPath(error.file)} (${error.message}), so that file's findings are unknown. ` +
        'Write the construct another way, or give run() the Babel parser plugin the message names (parserPlugins, the CLI -p).',
    )
  }

  const findings = result.issues.map((issue) => toFinding(issue, toRepositoryPath))
  const evaluation = evaluate(findings, entries)
  const { ok, lines } = report(evaluation, problems)
  for (const line of lines) console.log(line)
  console.log(
    `${findings.length} findings: ${evaluation.failures.length} failing, ${evaluation.justified.length} justified, ` +
      `${evaluation.other.length} below the gate; ${evaluation.stale.length} stale justifications; ${problems.length} errors`,
  )
  if (!ok) {
    console.error('Electronegativity gate FAILED: fix the findings above, or justify them in ' + CONFIG_NAME)
    process.exitCode = 1
  } else console.log('Electronegativity gate passed')
}

main().catch((error) => {
  console.error('Electronegativity gate could not run:', error)
  process.exitCode = 1
})
