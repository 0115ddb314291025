import { randomUUID } from 'node:crypto'
import { RosterDeskError } from '../errors'
import type { SensitivityLabel } from '../policy/policy-schema'
import { withCustomProperties } from './exceljs-internals'
import { CUSTOM_PROPERTIES_INTERNAL, type LoadedExcelJs } from './exceljs-loader'

/**
 * The machine policy's sensitivity label (`exports.sensitivityLabel`) as Office writes one into a document: the
 * `MSIP_Label_<GUID>_*` custom properties of `docProps/custom.xml`, which Office reads to show the label and
 * data-loss-prevention rules act on (xlsx-writer.ts adds the part through exceljs-internals.ts).
 */

/** The format ID every custom property of a document shares (FMTID_UserDefinedProperties). */
const USER_DEFINED_FMTID = '{D5CDD505-2E9C-101B-9397-08002B2CF9AE}'

/**
 * The label's properties, in the order and form the MIP SDK applies them (learn.microsoft.com, "Microsoft
 * Information Protection SDK - Metadata"): Enabled, SetDate (extended ISO 8601, UTC), Method "Privileged" (the
 * label was chosen, here by the organisation, not guessed), Name, SiteId, ActionId (new for every labelling) and
 * ContentBits 0 (no header, footer, watermark or encryption applied to the content).
 */
export function labelProperties(
  label: SensitivityLabel,
  setAt: Date,
  actionId: string = randomUUID(),
): ReadonlyArray<readonly [string, string]> {
  const prefix = `MSIP_Label_${label.id.toLowerCase()}_`
  return [
    [`${prefix}Enabled`, 'true'],
    [`${prefix}SetDate`, setAt.toISOString().replace(/\.\d{3}Z$/, 'Z')],
    [`${prefix}Method`, 'Privileged'],
    [`${prefix}Name`, label.name],
    [`${prefix}SiteId`, label.siteId.toLowerCase()],
    [`${prefix}ActionId`, actionId.toLowerCase()],
    [`${prefix}ContentBits`, '0'],
  ]
}

/** `docProps/custom.xml` holding `properties`, each a text (vt:lpwstr) property as Office writes a label's. */
export function customPropertiesXml(properties: ReadonlyArray<readonly [string, string]>): string {
  // pid 0 and 1 are reserved by OLE property sets; Office numbers custom properties from 2.
  const body = properties
    .map(
      ([name, value], index) =>
        `<property fmtid="${USER_DEFINED_FMTID}" pid="${index + 2}" name="${xmlText(name)}">` +
        `<vt:lpwstr>${xmlText(value)}</vt:lpwstr></property>`,
    )
    .join('')
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" ' +
    `xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">${body}</Properties>`
  )
}

function xmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

/**
 * The workbook writer class that adds the label's custom properties part, set at `setAt`. A label the writer
 * cannot add refuses the export before any row is written: a file that leaves without the label the
 * organisation requires would slip past its data-loss-prevention rules.
 */
export function labelledWriter(
  excel: LoadedExcelJs,
  label: SensitivityLabel,
  setAt: Date,
): ReturnType<typeof withCustomProperties> {
  if (excel.movedInternals.includes(CUSTOM_PROPERTIES_INTERNAL))
    throw labelNotWritten(label, "exceljs's package parts moved (see the warning above)")
  const xml = customPropertiesXml(labelProperties(label, setAt))
  return withCustomProperties(excel.WorkbookWriter, xml)
}

/** Why a file that must carry `label` was not saved; `detail` says what went wrong, for the log. */
export function labelNotWritten(label: SensitivityLabel, detail: string): RosterDeskError {
  return new RosterDeskError(
    'internal',
    `RosterDesk could not give this file your organisation's sensitivity label ("${label.name}"), so it was ` +
      'not saved. Reinstall RosterDesk; if it keeps happening, send the log to support.',
    { detail: `Sensitivity label ${label.id} not written: ${detail}` },
  )
}
