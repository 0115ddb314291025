import type { PreparingWork } from '../../../shared/domain/query'

/**
 * What the core is preparing, as a clerk reads it after the result count ("preparing the sort on Salary…"),
 * or undefined when nothing is. Labels are the columns' own, as the table's headers show them.
 */
export function preparingText(preparing: readonly PreparingWork[]): string | undefined {
  const builds: string[] = []
  let opening = false
  for (const work of preparing) {
    if (work.what === 'index') opening = true
    else builds.push(work.what === 'sort' ? `the sort on ${work.label}` : `search in ${work.label}`)
  }
  const parts: string[] = []
  if (opening) parts.push('opening the saved employees…')
  if (builds.length > 0) parts.push(`preparing ${joinWithAnd([...new Set(builds)])}…`)
  return parts.length === 0 ? undefined : parts.join(' ')
}

function joinWithAnd(items: readonly string[]): string {
  if (items.length <= 1) return items.join('')
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
}
