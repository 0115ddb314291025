import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import ts from 'typescript'

const SOURCE_DIR = join(__dirname, 'stand-in')
const OUT_DIR = resolve(__dirname, '../../.tmp/shell-stand-in')
const COMPILER_OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  esModuleInterop: true,
}

/**
 * The stand-in's boot file as plain CommonJS JavaScript, so the main bundle runs under Node exactly as Electron
 * runs it: with tsx loaded in the child, its resolver also served the bundle, where an extension-less
 * `import()` (the exceljs writer's, once) resolved in tests and failed in the shipped app. Each file is
 * transpiled alone (the stand-in imports only Node and itself) and moved into place whole, so test files
 * starting at once never read half a file. Returns the boot file's path.
 */
export function standInBoot(): string {
  mkdirSync(OUT_DIR, { recursive: true })
  for (const name of readdirSync(SOURCE_DIR).filter((file) => file.endsWith('.ts'))) {
    const source = readFileSync(join(SOURCE_DIR, name), 'utf8')
    const target = join(OUT_DIR, `${basename(name, '.ts')}.js`)
    // Rebuilt when the source, these options or TypeScript change, whatever the files' times say.
    const stamp = `// stand-in-build ${createHash('sha256')
      .update(`${ts.version}\n${JSON.stringify(COMPILER_OPTIONS)}\n${source}`)
      .digest('hex')}\n`
    if (firstLine(target) === stamp) continue
    const { outputText } = ts.transpileModule(source, {
      fileName: join(SOURCE_DIR, name),
      compilerOptions: COMPILER_OPTIONS,
    })
    const temporary = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`
    writeFileSync(temporary, stamp + outputText)
    renameSync(temporary, target)
  }
  return join(OUT_DIR, 'boot.js')
}

function firstLine(path: string): string | undefined {
  try {
    const text = readFileSync(path, 'utf8')
    return text.slice(0, text.indexOf('\n') + 1)
  } catch {
    return undefined
  }
}
