import type { SettingsFormController } from '../hooks/use-settings-form'
import { FORMAT_LOCALE_CHOICES, formatLocaleLabel } from '../../../shared/locale-format'
import type { SettingsForm, SettingsFormErrors } from '../settings/settings-form'
import { displaySystemLocale } from '../format/display-locale'
import { FormField } from './form-field'

interface RegionalFormatsProps {
  readonly form: SettingsForm
  readonly errors: SettingsFormErrors
  readonly change: SettingsFormController['change']
}

/**
 * Settings → Regional formats: "System" (the computer's regional settings) or a locale from the list, each shown
 * with a sample amount and date, so the clerk sees what they choose. UI text stays English whichever is chosen.
 */
export function RegionalFormats({ form, errors, change }: RegionalFormatsProps) {
  // What "System" stands for: the computer's regional formats (main's `app:get-info`, or the browser's).
  const systemLocale = displaySystemLocale()
  return (
    <fieldset>
      <legend>Regional formats</legend>
      <FormField
        id="setting-formatLocale"
        label="Numbers and dates"
        error={errors.formatLocale}
        hint="How numbers, amounts, dates and times are written on screen and on printed pages. Exports keep real numbers and dates."
      >
        {(describedBy, invalid) => (
          <select
            id="setting-formatLocale"
            value={form.formatLocale}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            onChange={(event) => {
              const chosen = FORMAT_LOCALE_CHOICES.find((choice) => choice === event.target.value)
              if (chosen !== undefined) change('formatLocale', chosen)
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
    </fieldset>
  )
}
