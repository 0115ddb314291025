import { useRef, useState, type ReactNode } from 'react'
import type { ExportFormat } from '../../../shared/domain'
import { CsvNote } from '../components/csv-note'

interface ExportFormatChoice {
  readonly format: ExportFormat
  /** The format menu, placed where the export's buttons are. */
  readonly menu: ReactNode
  /** The CSV note while CSV is chosen (else nothing), placed where the export's messages are. */
  readonly csvNote: ReactNode
}

/**
 * The export format a clerk picks (Excel unless they choose CSV), its menu and the CSV note that offers Excel
 * back; the two are returned apart because each export place shows them in its own spots.
 */
export function useExportFormat(): ExportFormatChoice {
  const [format, setFormat] = useState<ExportFormat>('xlsx')
  const formatSelect = useRef<HTMLSelectElement>(null)
  const menu = (
    <label className="format-choice">
      <span className="visually-hidden">Export format</span>
      <select
        ref={formatSelect}
        value={format}
        onChange={(event) => setFormat(event.target.value === 'csv' ? 'csv' : 'xlsx')}
      >
        <option value="xlsx">Excel (.xlsx)</option>
        <option value="csv">CSV (.csv)</option>
      </select>
    </label>
  )
  const csvNote =
    format === 'csv' ? (
      <CsvNote
        onUseXlsx={() => {
          setFormat('xlsx')
          // The note and its button go away; the clerk continues from the format they just changed.
          formatSelect.current?.focus()
        }}
      />
    ) : null
  return { format, menu, csvNote }
}
