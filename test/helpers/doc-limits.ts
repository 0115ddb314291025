import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'

/** How big a document may grow: its lines, its characters and its longest line. */
export interface DocLimits {
  readonly lines?: number
  readonly characters?: number
  readonly lineLength?: number
}

/** Each limit `text` breaks, as a sentence naming `file`, the limit and the figure (the long lines by number). */
export function limitProblems(file: string, text: string, limits: DocLimits): string[] {
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n')
  const problems: string[] = []
  if (limits.lines !== undefined && lines.length > limits.lines) {
    problems.push(`${file}: ${lines.length} lines, over the limit of ${limits.lines}`)
  }
  const characters = [...text].length
  if (limits.characters !== undefined && characters > limits.characters) {
    problems.push(`${file}: ${characters} characters, over the limit of ${limits.characters}`)
  }
  const { lineLength } = limits
  if (lineLength !== undefined) {
    lines.forEach((line, index) => {
      const length = [...line].length
      if (length > lineLength) {
        problems.push(`${file}:${index + 1}: a line of ${length} characters, over the limit of ${lineLength}`)
      }
    })
  }
  return problems
}

/** The text outside fenced code blocks and inline code spans, where a link can be. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '')
}

/**
 * Each relative link of the Markdown document `file` (inline `[text](target)` and reference definitions
 * `[label]: target`) whose target does not exist, and each reference `[label]` that has no definition. Web
 * addresses and links within the page (`#…`) are not checked; a target's `#fragment` is dropped.
 */
export function linkProblems(root: string, file: string, text: string): string[] {
  const body = prose(text)
  const problems: string[] = []
  const definitions = new Map<string, string>()
  for (const match of body.matchAll(/^\[([^\]\n]+)\]:\s+(\S+)/gm)) {
    definitions.set(match[1]!.toLowerCase(), match[2]!)
  }
  const inline = [...body.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]!)
  for (const target of [...inline, ...definitions.values()]) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue
    const path = decodeURIComponent(target.split('#')[0]!)
    if (!existsSync(join(root, dirname(file), path))) {
      problems.push(`${file}: the link to ${target} names no file in the repository`)
    }
  }
  for (const match of body.matchAll(/(?<![\]\\])\[([^\]\n]+)\](?![(:[])/g)) {
    if (!definitions.has(match[1]!.toLowerCase())) {
      problems.push(`${file}: [${match[1]}] is a reference with no definition`)
    }
  }
  return problems
}
