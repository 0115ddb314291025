import { readFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import ts from 'typescript'

/** Source files parsed by TypeScript, with parent links for names and lines, by repository-relative path. */
export type ParsedSources = ReadonlyMap<string, ts.SourceFile>

/**
 * `files` (repository-relative) parsed once, for every measure below: parsing is what the measures cost, and
 * each only reads the trees.
 */
export function parseSources(root: string, files: readonly string[]): ParsedSources {
  return new Map(
    files.map((file) => [
      file,
      ts.createSourceFile(file, readFileSync(resolve(root, file), 'utf8'), ts.ScriptTarget.Latest, true),
    ]),
  )
}

/** A function (declaration, expression, arrow, method or accessor) longer than the limit: where it is and how long. */
export interface LongFunction {
  file: string
  name: string
  line: number
  lines: number
}

function functionName(node: ts.Node): string {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isAccessor(node)) && node.name)
    return node.name.getText()
  const parent = node.parent
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    return parent.name.getText()
  if (ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText().slice(0, 40)})`
  return '(anonymous)'
}

/**
 * Every function in `sources` longer than `maxLines`, counted from the line it starts on to the line it ends on,
 * nested functions included, as a reader meets it.
 */
export function longFunctions(sources: ParsedSources, maxLines: number): LongFunction[] {
  const found: LongFunction[] = []
  for (const [file, source] of sources) {
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
        const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line
        const end = source.getLineAndCharacterOfPosition(node.getEnd()).line
        if (end - start + 1 > maxLines)
          found.push({ file, name: functionName(node), line: start + 1, lines: end - start + 1 })
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return found
}

const EXTENSIONS = ['.ts', '.tsx', '.mts', '/index.ts', '/index.tsx']

/**
 * The import graph of `sources` (parsed from the repository at `root`): each file's relative imports that resolve
 * to another of the files, type-only imports and re-exports included, since a type in the wrong file is what a
 * circle shows.
 */
export function importGraph(root: string, sources: ParsedSources): Map<string, string[]> {
  const known = new Set(sources.keys())
  const graph = new Map<string, string[]>()
  for (const [file, source] of sources) {
    const targets: string[] = []
    const add = (specifier: string): void => {
      if (!specifier.startsWith('.')) return
      const base = relative(root, resolve(root, dirname(file), specifier))
      const target = [base, ...EXTENSIONS.map((ext) => base + ext)].find((candidate) => known.has(candidate))
      if (target !== undefined && !targets.includes(target)) targets.push(target)
    }
    const visit = (node: ts.Node): void => {
      if (
        (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
        node.moduleSpecifier !== undefined
      ) {
        if (ts.isStringLiteral(node.moduleSpecifier)) add(node.moduleSpecifier.text)
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const [argument] = node.arguments
        if (argument !== undefined && ts.isStringLiteral(argument)) add(argument.text)
      } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
        const literal = node.argument.literal
        if (ts.isStringLiteral(literal)) add(literal.text)
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
    graph.set(file, targets)
  }
  return graph
}

/** The import circles in `graph`, each as the files around it (first file repeated at the end), one per strongly connected group. */
export function importCircles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's strongly connected components; a component of two or more files, or a file importing itself, is a circle.
  let index = 0
  const order = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const circles: string[][] = []
  const connect = (file: string): void => {
    order.set(file, index)
    low.set(file, index)
    index += 1
    stack.push(file)
    onStack.add(file)
    for (const next of graph.get(file) ?? []) {
      if (!order.has(next)) {
        connect(next)
        low.set(file, Math.min(low.get(file)!, low.get(next)!))
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, order.get(next)!))
    }
    if (low.get(file) !== order.get(file)) return
    const group: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      group.push(member)
    } while (member !== file)
    if (group.length > 1 || (graph.get(file) ?? []).includes(file))
      circles.push([...group.reverse(), group[0]!])
  }
  for (const file of graph.keys()) if (!order.has(file)) connect(file)
  return circles
}

/** The graph of `graph` lifted to folders: each file stands for `folderOf(file)`; imports within a folder are dropped. */
export function folderGraph(
  graph: ReadonlyMap<string, readonly string[]>,
  folderOf: (file: string) => string | undefined,
): Map<string, string[]> {
  const folders = new Map<string, string[]>()
  for (const [file, targets] of graph) {
    const from = folderOf(file)
    if (from === undefined) continue
    const next = folders.get(from) ?? []
    folders.set(from, next)
    for (const target of targets) {
      const to = folderOf(target)
      if (to !== undefined && to !== from && !next.includes(to)) next.push(to)
    }
  }
  return folders
}
