import { Fragment, useContext, useEffect, useMemo, useRef, useState } from 'react'
import type { ExportRequest } from '../../../shared/domain/export'
import type { FacetCount } from '../../../shared/domain/query'
import type { SavedView } from '../../../shared/view-schema'
import { isolateText } from '../format/bidi'
import { formatCount, plural } from '../format/format-value'
import { firstRowsRosterButtonText, rosterLimitText, rowLimitOver } from '../format/export-limit-text'
import { ExportRulesContext } from '../hooks/use-export-format'
import { usePayCycles } from '../hooks/use-pay-cycles'
import { useRosterCount, type RosterCount } from '../hooks/use-roster-count'
import { useRosterTemplates } from '../hooks/use-roster-templates'
import { ModalDialog } from './modal-dialog'

interface RosterDialogProps {
  /** The status filter on screen; the clerk chooses whether the roster applies it. */
  readonly screenStatuses: readonly string[]
  /** The pay cycles ticked on screen: one is the roster's pay cycle; several or none, the clerk picks. */
  readonly screenPayCycles: readonly string[]
  /** Tracked pay cycles (Settings) are offered first. */
  readonly trackedPayCycles: readonly string[]
  readonly columns: readonly string[]
  readonly format: ExportRequest['format']
  readonly dataVersion: string
  onExport(request: Extract<ExportRequest, { kind: 'roster' }>, label: string): void
  onClose(): void
}

/**
 * "Export roster…": the roster follows the screen. With one pay cycle ticked on screen that one is chosen; with
 * several or none nothing is chosen until the clerk picks from those in the cached data (each with how many
 * employees it has, the ticked ones first), so no roster is exported for a pay cycle the clerk did not see. One line
 * says how many rows the roster will hold, for which pay cycle and statuses, before anything is written; the clerk
 * decides whether the on-screen status filter applies. An empty roster is said plainly and cannot be exported as
 * if it were a success.
 */
export function RosterDialog(props: RosterDialogProps) {
  const dialogRef = useRef<HTMLDivElement>(null)
  const payCyclesState = usePayCycles(props.dataVersion)
  const payCycles = useMemo(
    () =>
      payCyclesState.status === 'ready'
        ? orderPayCycles(payCyclesState.payCycles, [...props.screenPayCycles, ...props.trackedPayCycles])
        : undefined,
    [payCyclesState, props.screenPayCycles, props.trackedPayCycles],
  )
  const [queryError, setQueryError] = useState<string>()
  const loadError = payCyclesState.status === 'failed' ? payCyclesState.message : queryError
  const [chosenPayCycleId, setPayCycleId] = useState<string>()
  // The one pay cycle ticked on screen (when the data has it) until the clerk chooses; else none: no silent default.
  const payCycleId = chosenPayCycleId ?? screenPayCycle(props.screenPayCycles, payCycles)
  const [applyStatuses, setApplyStatuses] = useState(props.screenStatuses.length > 0)
  // Saved views can be the roster's template: their statuses, columns and order, with the pay cycle chosen here.
  const templates = useRosterTemplates(props.dataVersion, setQueryError)
  const [templateId, setTemplateId] = useState('')
  const template = templates?.views.find((view) => view.id === templateId)
  const fromTemplate =
    template === undefined
      ? undefined
      : rosterTemplate(template, templates?.columns.map((column) => column.key) ?? [])
  const labelOf = (key: string): string =>
    templates?.columns.find((column) => column.key === key)?.label ?? key
  const statuses =
    fromTemplate !== undefined
      ? fromTemplate.statuses
      : applyStatuses && props.screenStatuses.length > 0
        ? [...props.screenStatuses]
        : undefined

  const count = useRosterCount(payCycleId, statuses, props.dataVersion, setQueryError)

  // Once the pay cycles are read, the focus moves on to the first choice (the pay cycle).
  useEffect(() => {
    dialogRef.current?.querySelector<HTMLElement>('select, button')?.focus()
  }, [payCycles])

  const empty = count.state === 'ready' && count.total === 0
  const canExport = payCycleId !== undefined && count.state === 'ready' && count.total > 0
  // Over the machine policy's limit: said here, before Export, which then writes the roster's first rows.
  const limit = rowLimitOver(
    useContext(ExportRulesContext).maxRows,
    count.state === 'ready' ? count.total : undefined,
  )
  const exportRoster = (): void => {
    if (!canExport || payCycleId === undefined) return
    props.onExport(
      {
        kind: 'roster',
        payCycleId,
        ...(statuses === undefined ? {} : { statuses }),
        ...(fromTemplate?.sort === undefined ? {} : { sort: fromTemplate.sort }),
        columns: fromTemplate?.columns ?? [...props.columns],
        format: props.format,
        ...(limit === undefined ? {} : { firstRows: limit }),
      },
      (limit === undefined ? '' : `the first ${formatCount(limit)} rows of `) +
        (template === undefined
          ? `the ${payCycleId} roster`
          : `the ${payCycleId} roster (view “${template.name}”)`),
    )
  }

  return (
    <ModalDialog
      title="Export a pay-cycle roster"
      className="roster-dialog"
      onClose={props.onClose}
      dialogRef={dialogRef}
    >
      {loadError !== undefined && <p role="alert">{loadError}</p>}
      {payCycles === undefined && loadError === undefined && <p>Reading the pay cycles in the saved data…</p>}
      {payCycles !== undefined && payCycles.length === 0 && (
        <p role="alert">No saved employee belongs to a pay cycle. Sync, then try again.</p>
      )}
      {payCycles !== undefined && payCycles.length > 0 && (
        <>
          <PayCycleField
            payCycles={payCycles}
            value={payCycleId}
            tracked={props.trackedPayCycles}
            onScreen={props.screenPayCycles}
            onChange={setPayCycleId}
          />
          {payCycleId === undefined && <p className="muted">{choosePrompt(props.screenPayCycles)}</p>}
          {templates !== undefined && templates.views.length > 0 && (
            <TemplateField views={templates.views} value={templateId} onChange={setTemplateId} />
          )}
          {template !== undefined && fromTemplate !== undefined ? (
            <p className="muted">
              From the view “{template.name}”:{' '}
              {formatCount(fromTemplate.columns?.length ?? props.columns.length)} columns
              {fromTemplate.columns === undefined ? ' (those on screen)' : ''}
              {fromTemplate.sort === undefined
                ? ''
                : `, sorted by ${labelOf(fromTemplate.sort.column)}, ${fromTemplate.sort.order === 'asc' ? 'ascending' : 'descending'}`}
              . Its search and pay cycles are not applied.
            </p>
          ) : props.screenStatuses.length > 0 ? (
            <label className="checkbox">
              <input
                type="checkbox"
                checked={applyStatuses}
                onChange={(event) => setApplyStatuses(event.target.checked)}
              />
              <span>
                Only the statuses filtered on screen:{' '}
                <Identifiers values={props.screenStatuses} joiner=", " />
              </span>
            </label>
          ) : null}
          <RosterSummary payCycleId={payCycleId} count={count} statuses={statuses} />
          {statuses === undefined && template === undefined && (
            <p className="muted">
              {props.screenStatuses.length > 0
                ? 'The status filter on screen is not applied: employees of every status are included.'
                : 'No status filter is applied: employees of every status are included.'}{' '}
              Search text and other on-screen filters never apply to a roster.
            </p>
          )}
          {limit !== undefined && count.state === 'ready' && (
            <p className="message-warning">{rosterLimitText(limit, count.total)}</p>
          )}
          {empty && (
            <p className="message-warning" role="alert">
              This roster is empty: no saved employee matches. Choose another pay cycle or status.
            </p>
          )}
        </>
      )}
      <div className="dialog-actions">
        <button type="button" onClick={props.onClose}>
          Cancel
        </button>
        <button type="button" className="primary" disabled={!canExport} onClick={exportRoster}>
          {!canExport
            ? 'Export…'
            : limit !== undefined
              ? firstRowsRosterButtonText(limit)
              : `Export ${formatCount(count.total)} rows…`}
        </button>
      </div>
    </ModalDialog>
  )
}

interface RosterSummaryProps {
  readonly payCycleId: string | undefined
  readonly count: RosterCount
  readonly statuses: readonly string[] | undefined
}

/**
 * The one line that says, before anything is written, what the roster will hold: how many employees, of which pay
 * cycle and statuses; or that nothing will be written until a pay cycle is chosen.
 */
function RosterSummary({ payCycleId, count, statuses }: RosterSummaryProps) {
  return (
    <p className="roster-summary" aria-live="polite">
      {payCycleId === undefined ? (
        'Nothing will be written until a pay cycle is chosen.'
      ) : count.state === 'loading' ? (
        'Counting…'
      ) : (
        <>
          The roster will hold {plural(count.total, 'employee')}: pay cycle{' '}
          <span className="identifier">{isolateText(payCycleId)}</span>,{' '}
          {statuses === undefined ? (
            'every status'
          ) : (
            <>
              status <Identifiers values={statuses} joiner=" or " />
            </>
          )}
          .
        </>
      )}
    </p>
  )
}

interface PayCycleFieldProps {
  readonly payCycles: readonly FacetCount[]
  readonly value: string | undefined
  readonly tracked: readonly string[]
  readonly onScreen: readonly string[]
  onChange(payCycleId: string): void
}

/**
 * The pay cycle to export, each with how many saved employees it has, those ticked on screen and the tracked ones
 * marked; "Choose a pay cycle…" while none is chosen (it cannot be chosen back).
 */
function PayCycleField({ payCycles, value, tracked, onScreen, onChange }: PayCycleFieldProps) {
  return (
    <label className="field">
      <span>Pay cycle</span>
      <select value={value ?? ''} onChange={(event) => onChange(event.target.value)}>
        {value === undefined && (
          <option value="" disabled>
            Choose a pay cycle…
          </option>
        )}
        {payCycles.map((cycle) => (
          <option key={cycle.value} value={cycle.value}>
            {isolateText(cycle.value)} ({plural(cycle.count, 'employee')})
            {onScreen.includes(cycle.value) ? ', ticked on screen' : ''}
            {tracked.includes(cycle.value) ? ', tracked' : ''}
          </option>
        ))}
      </select>
    </label>
  )
}

/** Identifiers (statuses, pay cycles) joined, each kept whole on one line: "PC-2026-11-A" never wraps at its hyphen. */
function Identifiers({ values, joiner }: { readonly values: readonly string[]; readonly joiner: string }) {
  return values.map((value, index) => (
    <Fragment key={value}>
      {index > 0 ? joiner : null}
      <span className="identifier">{isolateText(value)}</span>
    </Fragment>
  ))
}

/** The roster's pay cycle when exactly one is ticked on screen and the saved data has it; else none. */
export function screenPayCycle(
  onScreen: readonly string[],
  payCycles: readonly FacetCount[] | undefined,
): string | undefined {
  const [only] = onScreen
  if (onScreen.length !== 1 || only === undefined) return undefined
  return payCycles?.some((cycle) => cycle.value === only) === true ? only : undefined
}

/** Why no pay cycle is chosen yet, and what to do. */
function choosePrompt(onScreen: readonly string[]): string {
  if (onScreen.length > 1) {
    return `${formatCount(onScreen.length)} pay cycles are ticked on screen; a roster holds one. Choose it above.`
  }
  if (onScreen.length === 1) {
    return `The pay cycle ticked on screen (${isolateText(onScreen[0] ?? '')}) has no saved employees. Choose one above.`
  }
  return 'No pay cycle is ticked on screen. Choose the roster’s pay cycle above.'
}

interface TemplateFieldProps {
  readonly views: readonly SavedView[]
  /** The chosen view's id; '' for none. */
  readonly value: string
  onChange(viewId: string): void
}

/** The saved view the roster takes as its template, or none (the columns on screen). */
function TemplateField({ views, value, onChange }: TemplateFieldProps) {
  return (
    <label className="field">
      <span>Template</span>
      <select value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">None: the columns on screen</option>
        {views.map((view) => (
          <option key={view.id} value={view.id}>
            View: {view.name}
          </option>
        ))}
      </select>
    </label>
  )
}

/**
 * The `first` pay cycles first, in that order (the dialog passes those ticked on screen, then the tracked ones in
 * Settings' order), then the rest by name.
 */
export function orderPayCycles(
  facets: readonly FacetCount[],
  first: readonly string[],
): readonly FacetCount[] {
  const rank = (value: string): number => {
    const index = first.indexOf(value)
    return index === -1 ? first.length : index
  }
  return [...facets].sort((a, b) => rank(a.value) - rank(b.value) || a.value.localeCompare(b.value))
}

/**
 * What a saved view gives a roster: its statuses (none: every status), its columns the data still has (none left:
 * the columns on screen) and its order. Its search and pay cycles never narrow a roster, whose pay cycle is
 * chosen in the dialog.
 */
export function rosterTemplate(
  view: SavedView,
  available: readonly string[],
): {
  readonly statuses: string[] | undefined
  readonly columns: string[] | undefined
  readonly sort: SavedView['state']['sort']
} {
  const has = new Set(available)
  const columns = view.state.columns?.keys.filter((key) => has.has(key)) ?? []
  const sort = view.state.sort
  return {
    statuses: view.state.statuses.length > 0 ? [...view.state.statuses] : undefined,
    columns: columns.length > 0 ? columns : undefined,
    sort: sort !== undefined && has.has(sort.column) ? { ...sort } : undefined,
  }
}
