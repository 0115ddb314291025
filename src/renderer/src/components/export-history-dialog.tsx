import { useEffect, useId, useMemo, useState } from 'react'
import type { ExportHistory, ExportRecordEntry } from '../../../shared/domain/export'
import { recordFiltersText, recordWhatText } from '../../../shared/export-record-text'
import { errorMessage } from '../api/client'
import { useClient } from '../api/client-context'
import { formatCount, plural } from '../format/format-value'
import { formatDateTime } from '../format/relative-time'
import { ModalDialog } from './modal-dialog'

/** Columns named in an entry's summary before "and N more". */
const COLUMNS_NAMED = 4

/** "Roster PC-1 (XLSX)", "Copy": what left, as a clerk reads it. */
function whatText(entry: ExportRecordEntry): string {
  const what = recordWhatText(entry)
  const format = entry.format === undefined ? '' : ` (${entry.format.toUpperCase()})`
  return `${what.charAt(0).toUpperCase()}${what.slice(1)}${format}`
}

/** "lastName, firstName, annualSalary and 3 more"; a change report's are every field that changed. */
function columnsText(entry: ExportRecordEntry): string {
  const { columns } = entry
  if (entry.what === 'changes') return 'Every changed field'
  const named = columns.slice(0, COLUMNS_NAMED).join(', ')
  return columns.length > COLUMNS_NAMED ? `${named} and ${columns.length - COLUMNS_NAMED} more` : named
}

/** Where it went: the file and its folder; a print or a copy has none. */
function placeText(entry: ExportRecordEntry): { readonly name: string; readonly folder?: string } {
  if (entry.fileName !== undefined)
    return { name: entry.fileName, ...(entry.folder === undefined ? {} : { folder: entry.folder }) }
  return { name: entry.what === 'print' ? 'Printer' : entry.what === 'copy' ? 'Clipboard' : 'No file' }
}

/** Everything the search looks through: what, profile, file name and folder, filters, columns. */
function searchableText(entry: ExportRecordEntry): string {
  const place = placeText(entry)
  return [
    whatText(entry),
    entry.profile ?? '',
    entry.runtime === 'cli' ? 'command line' : 'app',
    place.name,
    place.folder ?? '',
    ...recordFiltersText(entry),
    ...entry.columns,
  ]
    .join('\n')
    .toLocaleLowerCase()
}

/**
 * Help → Export history: every file that left RosterDesk, in the app or from the command line (the export record,
 * `export:history`), newest first: when (local time), profile, what, rows, columns and filters, whether sensitive
 * columns went, and the file's name and folder. The search narrows it by any words of what, profile, file,
 * folder, filters or columns. It holds no employee data, so there is nothing to mask. A modal dialog: Esc or
 * Close shuts it, and the opener gets the focus back.
 */
export function ExportHistoryDialog({ onClose }: { readonly onClose: () => void }) {
  const client = useClient()
  const [history, setHistory] = useState<ExportHistory>()
  const [error, setError] = useState<string>()
  const [search, setSearch] = useState('')
  const countId = useId()
  useEffect(() => {
    let live = true
    client.call('export:history').then(
      (read) => live && setHistory(read),
      (failure: unknown) => live && setError(errorMessage(failure)),
    )
    return () => {
      live = false
    }
  }, [client])
  const indexed = useMemo(
    () => (history?.entries ?? []).map((entry) => ({ entry, text: searchableText(entry) })),
    [history],
  )
  const words = search.toLocaleLowerCase().split(/\s+/).filter(Boolean)
  const shown = indexed.filter(({ text }) => words.every((word) => text.includes(word)))
  const total = indexed.length

  const body = (() => {
    if (error !== undefined) return <p role="alert">{error}</p>
    if (history === undefined) return <p role="status">Reading the export history…</p>
    if (total === 0)
      return (
        <p className="history-empty">
          Nothing has left RosterDesk yet: every export, roster, change report, print and copy of more than
          one row will be listed here.
        </p>
      )
    return (
      <>
        <p id={countId} className="history-count" role="status">
          {shown.length === total
            ? plural(total, 'export')
            : `${formatCount(shown.length)} of ${plural(total, 'export')}`}
          {history.skippedLines > 0
            ? ` (${plural(history.skippedLines, 'damaged line')} of the record skipped)`
            : ''}
        </p>
        {shown.length === 0 ? (
          <p className="history-empty">No export matches “{search.trim()}”.</p>
        ) : (
          <div className="history-scroll">
            <table className="history-table" aria-describedby={countId}>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Profile</th>
                  <th scope="col">What</th>
                  <th scope="col" className="num">
                    Rows
                  </th>
                  <th scope="col">Columns and filters</th>
                  <th scope="col">Sensitive columns</th>
                  <th scope="col">File</th>
                </tr>
              </thead>
              <tbody>
                {shown.map(({ entry }, index) => (
                  <HistoryRow key={`${entry.at}-${index}`} entry={entry} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </>
    )
  })()

  return (
    <ModalDialog
      title="Export history"
      className="history-dialog"
      onClose={onClose}
      head={{
        className: 'history-head',
        controls: (
          <>
            <input
              type="search"
              className="history-search"
              aria-label="Search export history"
              placeholder="Search what, profile, file or filters"
              value={search}
              data-autofocus
              onChange={(event) => setSearch(event.target.value)}
            />
            <button type="button" onClick={onClose}>
              Close
            </button>
          </>
        ),
      }}
    >
      {body}
    </ModalDialog>
  )
}

function HistoryRow({ entry }: { readonly entry: ExportRecordEntry }) {
  const filters = recordFiltersText(entry)
  const place = placeText(entry)
  return (
    <tr>
      <td className="history-when">{formatDateTime(entry.at)}</td>
      <td>
        <bdi>{entry.profile ?? '—'}</bdi>
        {entry.runtime === 'cli' ? <span className="history-note">command line</span> : null}
      </td>
      <td>{whatText(entry)}</td>
      <td className="num">{formatCount(entry.rows)}</td>
      <td>
        <span className="history-columns">{columnsText(entry)}</span>
        {filters.length > 0 ? <span className="history-note">{filters.join('; ')}</span> : null}
      </td>
      <td>{entry.sensitiveColumns ? 'Included' : 'None'}</td>
      <td>
        <bdi className="history-file">{place.name}</bdi>
        {place.folder === undefined ? null : <bdi className="history-note">{place.folder}</bdi>}
      </td>
    </tr>
  )
}
