import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import ts from 'typescript'

const SOURCE_DIR = join(__dirname, 'stand-in')
const OUT_DIR = resolve(__dirname, '../../.tmp/shell-stand-in')

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
    const source = join(SOURCE_DIR, name)
    const target = join(OUT_DIR, `${basename(name, '.ts')}.js`)
    if (isNewer(target, source)) continue
    const { outputText } = ts.transpileModule(readFileSync(source, 'utf8'), {
      fileName: source,
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2022,
        esModuleInterop: true,
      },
    })
    const temporary = `${target}.${process.pid}.tmp`
    writeFileSync(temporary, outputText)
    renameSync(temporary, target)
  }
  return join(OUT_DIR, 'boot.js')
}

function isNewer(target: string, source: string): boolean {
  try {
    return statSync(target).mtimeMs >= statSync(source).mtimeMs
  } catch {
    return false
  }
}
