interface CsvNoteProps {
  /** Switches the export to Excel (.xlsx). */
  readonly onUseXlsx: () => void
  /**
   * The browse view's form: a short chip on the count line's row (the toolbar stays one row at 1366 px), its full
   * sentence for screen readers and as its tooltip.
   */
  readonly compact?: boolean
}

const WHY =
  'Spreadsheet apps drop leading zeros from CSV files: Excel shows employee number 0004711 as 4711. Excel (.xlsx) keeps them.'
const USE_XLSX = 'Use Excel (.xlsx) instead'

/**
 * Shown while CSV is chosen: spreadsheet apps read a CSV's digits as numbers, so employee numbers lose their
 * leading zeros (and long ones their last digits) when the file is opened; the .xlsx keeps them as text.
 */
export function CsvNote({ onUseXlsx, compact = false }: CsvNoteProps) {
  if (compact) {
    return (
      <p className="csv-note csv-note-compact" role="note" title={WHY}>
        <span aria-hidden="true">CSV drops leading zeros.</span>
        <span className="visually-hidden">{WHY}</span>{' '}
        <button type="button" className="link" onClick={onUseXlsx}>
          {USE_XLSX}
        </button>
      </p>
    )
  }
  return (
    <p className="csv-note" role="note">
      {WHY}{' '}
      <button type="button" className="link" onClick={onUseXlsx}>
        {USE_XLSX}
      </button>
    </p>
  )
}
