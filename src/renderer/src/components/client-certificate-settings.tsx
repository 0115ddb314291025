import type { SettingsFormController } from '../hooks/use-settings-form'
import type { LockableFormField, SettingsForm, SettingsFormErrors } from '../settings/settings-form'
import { FormTextSetting, type TextFormField } from './text-setting'

interface ClientCertificateSettingsProps {
  readonly form: SettingsForm
  readonly errors: SettingsFormErrors
  readonly change: SettingsFormController['change']
  /** The fields the machine policy sets: shown disabled, "Set by your organisation" beside each. */
  readonly locked: ReadonlySet<LockableFormField>
}

/**
 * Settings → Client certificate: the certificate RosterDesk sends when the payroll service asks for one (a smart
 * card, a company's client certificate), named as the computer's certificate store shows it: issued to, issued
 * by. Saved with the form; both or neither (the schema's rule). RosterDesk sends it to the profile's service only,
 * and sends none when none is named (decision 051): the OS's store is not listed here, so what is typed must
 * match the store's names (ignoring case).
 */
export function ClientCertificateSettings({ form, errors, change, locked }: ClientCertificateSettingsProps) {
  const text = (field: TextFormField, label: string, hint: string) => (
    <FormTextSetting binding={{ form, errors, locked, change }} field={field} label={label} hint={hint} />
  )
  return (
    <fieldset>
      <legend>Client certificate</legend>
      <p className="muted">
        Only when IT says the payroll service asks for your certificate. Leave both empty and RosterDesk sends
        no certificate to any server.
      </p>
      {text(
        'clientCertificateSubject',
        'Issued to',
        'The certificate’s name as your computer’s certificate list shows it (“Issued to”), for example your own name.',
      )}
      {text(
        'clientCertificateIssuer',
        'Issued by',
        'Who issued it, as the same list shows it (“Issued by”), for example Acme Issuing CA.',
      )}
    </fieldset>
  )
}
