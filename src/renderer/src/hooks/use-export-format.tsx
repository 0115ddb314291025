import { createContext, useContext, useId, useRef, useState, type ReactNode } from 'react'
import type { ExportFormat } from '../../../shared/domain/export'
import { CSV_NOT_ALLOWED_MESSAGE, NO_EXPORT_RULES, type ExportRulesView } from '../../../shared/policy-view'
import { CsvNote } from '../components/csv-note'

/**
 * The machine policy's export rules (the settings view's `policy.exports`), given by the app to every export
 * place; none until the settings are read. Main refuses what they forbid in any case.
 */
export const ExportRulesContext = createContext<ExportRulesView>(NO_EXPORT_RULES)

export interface ExportFormatChoice {
  readonly format: ExportFormat
  /** The format menu, placed where the export's buttons are. */
  readonly menu: ReactNode
  /** The CSV note while CSV is chosen (else nothing), placed where the export's messages are. */
  readonly csvNote: ReactNode
}

/**
 * The export format a clerk picks (Excel unless they choose CSV), its menu and the CSV note that offers Excel
 * back (`compactNote`: its short form, for the toolbar); the two are returned apart because each export place
 * shows them in its own spots. When the organisation
 * allows Excel only, the CSV choice is disabled, and the menu says why (its description and tooltip).
 */
export function useExportFormat(options: { readonly compactNote?: boolean } = {}): ExportFormatChoice {
  const rules = useContext(ExportRulesContext)
  const [chosen, setFormat] = useState<ExportFormat>('xlsx')
  const format: ExportFormat = rules.csvAllowed ? chosen : 'xlsx'
  const formatSelect = useRef<HTMLSelectElement>(null)
  const reasonId = useId()
  const menu = (
    <span className="format-choice-group">
      <label className="format-choice">
        <span className="visually-hidden">Export format</span>
        <select
          ref={formatSelect}
          value={format}
          aria-describedby={rules.csvAllowed ? undefined : reasonId}
          title={rules.csvAllowed ? undefined : CSV_NOT_ALLOWED_MESSAGE}
          onChange={(event) => setFormat(event.target.value === 'csv' ? 'csv' : 'xlsx')}
        >
          <option value="xlsx">Excel (.xlsx)</option>
          <option value="csv" disabled={!rules.csvAllowed}>
            {rules.csvAllowed ? 'CSV (.csv)' : 'CSV (not allowed)'}
          </option>
        </select>
      </label>
      {rules.csvAllowed ? null : (
        // Said in full to whoever reads the menu, and in its tooltip; the toolbar keeps its one line.
        <span id={reasonId} className="visually-hidden">
          {CSV_NOT_ALLOWED_MESSAGE}
        </span>
      )}
    </span>
  )
  const csvNote =
    format === 'csv' ? (
      <CsvNote
        compact={options.compactNote === true}
        onUseXlsx={() => {
          setFormat('xlsx')
          // The note and its button go away; the clerk continues from the format they just changed.
          formatSelect.current?.focus()
        }}
      />
    ) : null
  return { format, menu, csvNote }
}
