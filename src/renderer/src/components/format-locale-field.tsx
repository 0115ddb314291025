import { FORMAT_LOCALE_CHOICES, formatLocaleLabel } from '../../../shared/locale-format'
import type { FormatLocaleSetting } from '../../../shared/settings-rules'
import { FormField } from './form-field'

interface FormatLocaleFieldProps {
  readonly value: FormatLocaleSetting
  readonly error: string | undefined
  /** The computer's regional formats (main's `app:get-info`, or the browser's), which "System" stands for. */
  readonly systemLocale: string | undefined
  onChange(locale: FormatLocaleSetting): void
}

/**
 * Settings → Regional formats: "System" (the computer's regional settings) or a locale from the list, each shown
 * with a sample amount and date, so the clerk sees what they choose. UI text stays English whichever is chosen.
 */
export function FormatLocaleField({ value, error, systemLocale, onChange }: FormatLocaleFieldProps) {
  return (
    <FormField
      id="setting-formatLocale"
      label="Numbers and dates"
      error={error}
      hint="How numbers, amounts, dates and times are written on screen and on printed pages. Exports keep real numbers and dates."
    >
      {(describedBy, invalid) => (
        <select
          id="setting-formatLocale"
          value={value}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          onChange={(event) => {
            const chosen = FORMAT_LOCALE_CHOICES.find((choice) => choice === event.target.value)
            if (chosen !== undefined) onChange(chosen)
          }}
        >
          {FORMAT_LOCALE_CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {formatLocaleLabel(choice, systemLocale)}
            </option>
          ))}
        </select>
      )}
    </FormField>
  )
}
