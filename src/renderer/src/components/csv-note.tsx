interface CsvNoteProps {
  /** Switches the export to Excel (.xlsx). */
  readonly onUseXlsx: () => void
}

/**
 * Shown while CSV is chosen: spreadsheet apps read a CSV's digits as numbers, so employee numbers lose their
 * leading zeros (and long ones their last digits) when the file is opened; the .xlsx keeps them as text.
 */
export function CsvNote({ onUseXlsx }: CsvNoteProps) {
  return (
    <p className="csv-note" role="note">
      Spreadsheet apps drop leading zeros from CSV files: Excel shows employee number 0004711 as 4711. Excel
      (.xlsx) keeps them.{' '}
      <button type="button" className="link" onClick={onUseXlsx}>
        Use Excel (.xlsx) instead
      </button>
    </p>
  )
}
