import { useEffect, useId, useRef, useState } from 'react'
import type { ChangeEntry, ChangeHistoryEntry, ChangeKind } from '../../../shared/domain/changes'
import { ENVIRONMENTS, environmentLabel } from '../../../shared/settings-rules'
import { changeWords, runSummary } from '../format/change-text'
import { formatCount } from '../format/format-value'
import { formatSyncMoment } from '../format/relative-time'
import { useChangeHistory } from '../hooks/use-change-history'
import { useColumns } from '../hooks/use-columns'
import { useExport } from '../hooks/use-export'
import { useExportFormat } from '../hooks/use-export-format'
import { useNow } from '../hooks/use-now'
import { ChangeEntryList, type ChangeSort } from './change-entry-list'
import { DetailPanel } from './detail-panel'
import { ExportStatus } from './export-status'
import { ModalDialog } from './modal-dialog'

interface ChangeReportDialogProps {
  /** Changes when a sync replaced the saved employees, so the history is read again. */
  readonly dataVersion: string
  readonly onClose: () => void
}

const KINDS: ReadonlyArray<{ readonly kind: ChangeKind; readonly title: string }> = [
  { kind: 'added', title: 'Added' },
  { kind: 'removed', title: 'Removed' },
  { kind: 'changed', title: 'Changed' },
]

/**
 * The change report a clerk reconciles with: one of the last 20 complete syncs (the latest first), who it added,
 * removed and changed with their number, status and pay cycle (and, for a changed one, each field from what to
 * what), each opening the employee's details beside the list (a removed one from the last row the cache held),
 * and "Export changes…" to a spreadsheet through main's save dialog.
 */
export function ChangeReportDialog({ dataVersion, onClose }: ChangeReportDialogProps) {
  const tabsId = useId()
  const dialogRef = useRef<HTMLDivElement>(null)
  const history = useChangeHistory(dataVersion)
  const columns = useColumns(dataVersion)
  const exporter = useExport(columns)
  const [chosenRun, setChosenRun] = useState<number>()
  const [chosenKind, setChosenKind] = useState<ChangeKind>()
  const [open, setOpen] = useState<{ readonly entry: ChangeEntry; readonly kind: ChangeKind }>()
  // The search and order of the lists, kept as the clerk moves between them.
  const [search, setSearch] = useState('')
  const [sort, setSort] = useState<ChangeSort>({ column: 'name', order: 'asc' })
  const { format, menu: formatMenu, csvNote } = useExportFormat()
  const now = useNow()

  const runs = history.status === 'ready' ? history.runs : []
  const run = runs.find((candidate) => candidate.runId === chosenRun) ?? runs[0]
  // The first list with anyone in it, unless the clerk chose one.
  const kind = chosenKind ?? KINDS.find((each) => run !== undefined && run[each.kind] > 0)?.kind ?? 'added'
  const labels = new Map(columns.map((column) => [column.key, column.label]))
  const fieldLabel = (field: string): string => labels.get(field) ?? field

  // Once the history is read, the focus moves on to its first control (the sync to look at).
  useEffect(() => {
    dialogRef.current?.querySelector<HTMLElement>('select, button')?.focus()
  }, [history.status])

  const chooseRun = (runId: number): void => {
    setChosenRun(runId)
    setChosenKind(undefined)
    setOpen(undefined)
  }
  const listed = run !== undefined && run.entriesKept && !run.firstSync
  const busy = exporter.state.phase === 'running'

  return (
    <ModalDialog
      title="Change report"
      className="change-dialog"
      onClose={onClose}
      head={{
        className: 'change-dialog-head',
        closeLabel: 'Close the change report',
        controls: runs.length > 0 && run !== undefined && (
          <label className="change-dialog-run">
            <span>Sync</span>
            <select value={run.runId} onChange={(event) => chooseRun(Number(event.target.value))}>
              {runs.map((each, index) => (
                <option key={each.runId} value={each.runId}>
                  {formatSyncMoment(each.endedAt, now)}
                  {index === 0 ? ' (latest)' : ''}: {runSummary(each)}
                </option>
              ))}
            </select>
          </label>
        ),
      }}
      dialogRef={dialogRef}
    >
      {history.status === 'loading' && <p className="muted">Reading the sync history…</p>}
      {history.status === 'failed' && <p role="alert">{history.message}</p>}
      {history.status === 'ready' && run === undefined && <p>No sync has finished yet.</p>}
      {run !== undefined && <p className="muted change-dialog-source">{sourceText(run)}</p>}
      {run?.firstSync === true && (
        <p className="change-dialog-note">
          First sync: {formatCount(run.employeeCount)} employees. From the next sync on, this report lists who
          was added, removed or changed.
        </p>
      )}
      {run !== undefined && !run.firstSync && !run.entriesKept && (
        <p className="change-dialog-note">
          This sync {changeWords(run)}. Its list of employees is no longer kept: the history keeps the
          employees of recent syncs, and only the counts of older ones.
        </p>
      )}
      {listed && run !== undefined && (
        <div className={`change-dialog-body${open !== undefined ? ' with-detail' : ''}`}>
          <div className="change-dialog-lists">
            <div className="change-tabs-row">
              <ChangeTabs
                run={run}
                kind={kind}
                idPrefix={tabsId}
                onChoose={(chosen) => {
                  setChosenKind(chosen)
                  setOpen(undefined)
                }}
              />
              <label className="change-search">
                <span>Find in this list</span>
                <input
                  type="search"
                  value={search}
                  placeholder="Name or number"
                  onChange={(event) => setSearch(event.target.value)}
                />
              </label>
            </div>
            <ChangeEntryList
              key={`${run.runId}:${kind}`}
              runId={run.runId}
              kind={kind}
              total={run[kind]}
              search={search}
              sort={sort}
              onSort={setSort}
              selected={open?.entry.UUID}
              onOpen={(entry) => setOpen({ entry, kind })}
              fieldLabel={fieldLabel}
              id={`${tabsId}-panel`}
              labelledBy={`${tabsId}-${kind}`}
            />
          </div>
          {open !== undefined && (
            <DetailPanel
              key={`${open.kind}:${open.entry.UUID}`}
              uuid={open.entry.UUID}
              columns={columns}
              onClose={() => setOpen(undefined)}
              {...(open.kind === 'removed' && open.entry.row !== undefined
                ? { removed: { row: open.entry.row, syncEndedAt: run.endedAt } }
                : {})}
            />
          )}
        </div>
      )}
      <ExportStatus exporter={exporter} />
      {csvNote}
      <div className="dialog-actions">
        {formatMenu}
        <button
          type="button"
          disabled={!listed || busy || run === undefined}
          onClick={() => {
            if (run === undefined) return
            exporter.startChanges(
              { runId: run.runId, format },
              `the changes of the sync of ${formatSyncMoment(run.endedAt, now)}`,
            )
          }}
        >
          Export changes…
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </ModalDialog>
  )
}

/** An environment as Settings names it; one the run log recorded that this version does not know, as recorded. */
function environmentName(recorded: string): string {
  const known = ENVIRONMENTS.find((environment) => environment === recorded)
  return known === undefined ? recorded : environmentLabel(known)
}

/** "Demo · tenant tenant-demo · 5,012 employees after the sync": where a sync read from, as its run log says. */
function sourceText(run: ChangeHistoryEntry): string {
  const where = run.environment !== undefined ? environmentName(run.environment) : run.serviceAddress
  return [
    where,
    run.tenantId === undefined ? undefined : `tenant ${run.tenantId}`,
    `${formatCount(run.employeeCount)} employees after the sync`,
  ]
    .filter((part) => part !== undefined)
    .join(' · ')
}

interface ChangeTabsProps {
  readonly run: ChangeHistoryEntry
  readonly kind: ChangeKind
  /** Each tab's id is this and its kind; the panel's, this and "-panel". */
  readonly idPrefix: string
  readonly onChoose: (kind: ChangeKind) => void
}

/** The three lists of a sync as tabs, each with its count: Added, Removed, Changed. */
function ChangeTabs({ run, kind, idPrefix, onChoose }: ChangeTabsProps) {
  return (
    <div className="change-tabs" role="tablist" aria-label="Kind of change">
      {KINDS.map((each) => (
        <button
          key={each.kind}
          type="button"
          role="tab"
          id={`${idPrefix}-${each.kind}`}
          aria-selected={each.kind === kind}
          aria-controls={`${idPrefix}-panel`}
          className={`change-tab change-tab-${each.kind}`}
          onClick={() => onChoose(each.kind)}
        >
          {each.title} ({formatCount(run[each.kind])})
        </button>
      ))}
    </div>
  )
}
