import type { ChangeEntry, ChangeKind } from '../../../shared/domain/changes'
import { isSensitiveField } from '../../../shared/sensitive-fields'
import type { ChangeEntrySource } from '../changes/change-history'

/**
 * A change report's entries as "Export changes…" may write them (`sensitiveColumnsIncluded`, export-rules.ts):
 * when sensitive data may not go, a changed sensitive field (shared/sensitive-fields.ts) keeps its row, naming
 * the field, but not its values before and after, so the file says that pay changed and never what to. The
 * counts stay the source's (every employee is still listed). `sensitiveWritten` says, once the file is written,
 * whether a sensitive field's values went into it: what the export record notes.
 */
export function sensitiveChangesSource(
  source: ChangeEntrySource,
  include: boolean,
): { readonly source: ChangeEntrySource; readonly sensitiveWritten: () => boolean } {
  let written = false
  const pass = (entries: ChangeEntry[]): ChangeEntry[] =>
    entries.map((entry) => {
      const changes = entry.changes
      if (changes === undefined || !changes.some((change) => isSensitiveField(change.field))) return entry
      if (include) {
        written = true
        return entry
      }
      return {
        ...entry,
        changes: changes.map((change) => (isSensitiveField(change.field) ? { field: change.field } : change)),
      }
    })
  return {
    source: {
      counts: source.counts,
      ...(source.numberColumn === undefined ? {} : { numberColumn: source.numberColumn }),
      batches: (kind: ChangeKind, batchSize: number) => passed(source.batches(kind, batchSize), pass),
      close: () => source.close(),
    },
    sensitiveWritten: () => written,
  }
}

/** Each batch of `batches` through `pass`, as the same kind of iterable (a sync one stays sync). */
function passed(
  batches: Iterable<ChangeEntry[]> | AsyncIterable<ChangeEntry[]>,
  pass: (entries: ChangeEntry[]) => ChangeEntry[],
): Iterable<ChangeEntry[]> | AsyncIterable<ChangeEntry[]> {
  if (Symbol.asyncIterator in batches) {
    return (async function* () {
      for await (const entries of batches) yield pass(entries)
    })()
  }
  return (function* () {
    for (const entries of batches) yield pass(entries)
  })()
}
