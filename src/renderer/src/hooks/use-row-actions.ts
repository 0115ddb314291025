import { useEffect, useState, type ClipboardEvent, type MouseEvent, type RefObject } from 'react'
import type { ColumnInfo, EmployeeRow as Row } from '../../../shared/domain/rows'
import { chordLabel, GRID_SHORTCUTS } from '../../../shared/shortcuts'
import type { MenuItem } from '../components/row-context-menu'
import { cellSelector } from '../components/employee-row'
import { isSelected, selectedCount, selectedIndexes, selectOnly } from '../data/row-selection'
import type { RowWindowCache } from '../data/row-window-cache'
import { MAX_COPY_ROWS } from '../data/copy-limit'
import { errorMessage } from '../api/client'
import { useClient } from '../api/client-context'
import { formatCount, plural } from '../format/format-value'
import { isMac } from './use-app-commands'
import { isMasked, usePayDisplay } from './use-pay-display'
import type { RowSelectionController } from './use-row-selection'

/** How long what a copy did stays on screen (under the table, under a copied report). */
export const NOTICE_MS = 8_000

/** What the table asks of its row actions; see useRowActions. */
export interface RowActions {
  /** What a copy or an export of the selection did ("Copied 3 rows."), '' when there is nothing to say. */
  readonly notice: string
  /** Where the row menu is open (viewport coordinates), undefined while it is closed. */
  readonly menu: { x: number; y: number } | undefined
  readonly menuItems: MenuItem[]
  /**
   * Copies the selected rows: main reads them by UUID and writes the clipboard, tab-separated text with the shown
   * columns' headers and an HTML table beside it (`export:copy-rows`).
   */
  copyRows(): void
  /** The Menu key or Shift+F10: the row menu under the active cell (selecting the first row if none is). */
  openMenuAtActive(): void
  /** A right-click on a row: selects it unless it is selected already, and opens the row menu at the pointer. */
  onRowContextMenu(index: number, column: number, event: MouseEvent): void
  /** The grid's copy event (the Edit menu's Copy, and Ctrl+C where the menu takes the key first). */
  onCopy(event: ClipboardEvent<HTMLDivElement>): void
  /** The row menu closed: the focus goes back to the active row. */
  closeMenu(): void
}

interface RowActionsOptions {
  readonly cache: RowWindowCache
  readonly scrollRef: RefObject<HTMLDivElement | null>
  /** The shown columns, in screen order: what a copy writes. */
  readonly columns: readonly ColumnInfo[]
  /** Every column of the data, for "Copy employee number" and "Copy e-mail". */
  readonly allColumns: readonly ColumnInfo[]
  readonly rowSelection: RowSelectionController
  readonly onActiveChange: (index: number) => void
  readonly onOpen: (index: number) => void
  /** "Export selected rows": their UUIDs, in table order. */
  readonly onExportRows: (uuids: readonly string[]) => void
}

/**
 * What the employee table does with its selected rows: copy them (whole, or one identifier column), export them,
 * open the active one's details, all offered by the row menu, and the notice that says what a copy did (read by
 * screen readers, gone after a while).
 */
export function useRowActions(options: RowActionsOptions): RowActions {
  const { cache, scrollRef, columns, allColumns, rowSelection, onActiveChange, onOpen, onExportRows } =
    options
  const { selection, active, state, update, moveTo } = rowSelection
  const client = useClient()
  const display = usePayDisplay()
  const [notice, setNotice] = useState('')
  const [menu, setMenu] = useState<{ x: number; y: number }>()
  // What a copy did ("Copied 3 rows."), shown under the table for a while and read by screen readers.
  useEffect(() => {
    if (notice === '') return
    const timer = window.setTimeout(() => setNotice(''), NOTICE_MS)
    return () => window.clearTimeout(timer)
  }, [notice])

  /** The selected rows (at most MAX_COPY_ROWS), read through the cache's loader when off screen. */
  const selectedRows = async (): Promise<{ rows: Row[]; count: number }> => {
    const count = selectedCount(selection)
    return { rows: await cache.rowsAt(selectedIndexes(selection, MAX_COPY_ROWS)), count }
  }
  const cappedNote = (count: number): string =>
    count > MAX_COPY_ROWS
      ? ` (the first ${formatCount(MAX_COPY_ROWS)} of ${formatCount(count)} selected: the most one copy takes)`
      : ''
  const copy = (what: 'rows' | ColumnInfo): void => {
    if (selectedCount(selection) === 0) return
    void (async () => {
      let uuids: string[]
      let count: number
      try {
        const selected = await selectedRows()
        count = selected.count
        uuids = uuidsOf(selected.rows)
      } catch {
        setNotice('RosterDesk could not read the selected rows. Try again.')
        return
      }
      if (uuids.length === 0) return
      try {
        // Which employees and columns: main reads their values from the saved employees and writes the clipboard.
        const copied = await client.call('export:copy-rows', {
          uuids,
          // A column masked on screen is not copied; the core leaves out what the policy keeps in (copy-rows.ts).
          columns:
            what === 'rows'
              ? columns.filter((column) => !isMasked(display, column.key)).map((column) => column.key)
              : [what.key],
          headers: what === 'rows',
        })
        const rows = plural(copied.rows, 'row')
        setNotice(`Copied ${what === 'rows' ? rows : `${what.label} of ${rows}`}${cappedNote(count)}.`)
      } catch (error) {
        setNotice(errorMessage(error))
      }
    })()
  }
  const exportSelected = (): void => {
    void (async () => {
      try {
        const { rows, count } = await selectedRows()
        const uuids = uuidsOf(rows)
        if (count > MAX_COPY_ROWS) setNotice(`Exporting${cappedNote(count)}.`)
        if (uuids.length > 0) onExportRows(uuids)
      } catch {
        setNotice('RosterDesk could not read the selected rows. Try again.')
      }
    })()
  }

  const numberColumn = allColumns.find((column) => column.identifier === 'number')
  const emailColumn = allColumns.find((column) => column.identifier === 'email')
  const copyHint = GRID_SHORTCUTS.find((shortcut) => shortcut.id === 'copy')?.chords[0]
  const menuItems: MenuItem[] = [
    { label: 'Copy', ...(copyHint ? { hint: chordLabel(copyHint, isMac) } : {}), run: () => copy('rows') },
    numberColumn === undefined
      ? {
          label: 'Copy employee number',
          disabled: true,
          reason: 'The data has no employee numbers.',
          run: noop,
        }
      : { label: 'Copy employee number', run: () => copy(numberColumn) },
    emailColumn === undefined
      ? { label: 'Copy e-mail', disabled: true, reason: 'The data has no e-mail addresses.', run: noop }
      : { label: 'Copy e-mail', run: () => copy(emailColumn) },
    { label: 'Export selected rows…', run: exportSelected },
    {
      label: 'Open details',
      disabled: active === undefined,
      run: () => active !== undefined && onOpen(active),
    },
  ]
  const openMenuAtActive = (): void => {
    const grid = scrollRef.current
    const cell =
      active === undefined ? null : (grid?.querySelector(cellSelector(active, state.column)) ?? null)
    const box = (cell ?? grid)?.getBoundingClientRect()
    if (active === undefined) moveTo(0)
    setMenu({ x: (box?.left ?? 0) + 8, y: (box?.bottom ?? 0) - 4 })
  }
  const onRowContextMenu = (index: number, column: number, event: MouseEvent): void => {
    event.preventDefault()
    if (!isSelected(selection, index)) {
      update({ selection: selectOnly(index), column, onHeader: false })
      onActiveChange(index)
    } else {
      update({ selection: { ...selection, active: index }, column, onHeader: false })
    }
    setMenu({ x: event.clientX, y: event.clientY })
  }
  const onCopy = (event: ClipboardEvent<HTMLDivElement>): void => {
    if (selectedCount(selection) === 0) return
    event.preventDefault()
    copy('rows')
  }
  const closeMenu = (): void => {
    setMenu(undefined)
    // An update, even of nothing, puts the focus back on the active cell after the render.
    update({})
  }

  return {
    notice,
    menu,
    menuItems,
    copyRows: () => copy('rows'),
    openMenuAtActive,
    onRowContextMenu,
    onCopy,
    closeMenu,
  }
}

function noop(): void {}

/** The rows' UUIDs, in their order: what a copy or an export of chosen rows names them by. */
function uuidsOf(rows: readonly Row[]): string[] {
  return rows.flatMap((row) => (typeof row['UUID'] === 'string' ? [row['UUID']] : []))
}
