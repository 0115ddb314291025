import { describe, expect, it } from 'vitest'
import { createLogger } from '../../../../../src/main/core/log/logger'
import {
  ClientCertificateChoice,
  type OfferedCertificate,
} from '../../../../../src/main/shell/network/client-certificate'

/**
 * Main's answer to app's 'select-client-certificate' (issue 31, point 9), called with Electron's arguments
 * (electron 45: shell/browser/api/electron_api_app.cc, App::SelectClientCertificate).
 */

const NOW = Date.parse('2026-12-07T12:00:00Z')
const DAY = 86_400

function offered(
  subjectName: string,
  issuerName: string,
  fromDays: number,
  toDays: number,
): OfferedCertificate {
  return {
    data: `${subjectName}|${issuerName}|${fromDays}|${toDays}`,
    subjectName,
    issuerName,
    validStart: NOW / 1000 + fromDays * DAY,
    validExpiry: NOW / 1000 + toDays * DAY,
  }
}

function setup() {
  const log: string[] = []
  const choice = new ClientCertificateChoice(
    createLogger((level, text) => log.push(`${level}: ${text}`)),
    () => NOW,
  )
  const select = (url: string, list: OfferedCertificate[], webContents: unknown = null) => {
    let prevented = false
    const answers: Array<OfferedCertificate | undefined> = []
    choice.onSelect({ preventDefault: () => (prevented = true) }, webContents, url, list, (certificate) =>
      answers.push(certificate),
    )
    return { prevented, answers }
  }
  return { choice, select, log }
}

const OLD = offered('Clerk One', 'Acme Issuing CA', -400, 30)
const RENEWED = offered('CLERK ONE', 'acme issuing ca', -1, 700)
const EXPIRED = offered('Clerk One', 'Acme Issuing CA', -800, -1)
const OTHER = offered('Someone Else', 'Acme Issuing CA', -1, 900)

describe('ClientCertificateChoice', () => {
  it('prevents Electron’s default and sends none while nothing is named', () => {
    const { select, log } = setup()
    expect(select('payroll.example.com:443', [OTHER, OLD])).toEqual({ prevented: true, answers: [undefined] })
    expect(log.join('\n')).toContain('none is named in Settings')
  })

  it('sends the named certificate valid longest (ignoring case), never an expired one, to the service only', () => {
    const { choice, select } = setup()
    choice.set({ subject: 'Clerk One', issuer: 'Acme Issuing CA', host: 'Payroll.Example.com:443' })
    expect(select('payroll.example.com:443', [OTHER, OLD, RENEWED, EXPIRED]).answers).toEqual([RENEWED])
    expect(select('payroll.example.com:443', [EXPIRED, OTHER]).answers).toEqual([undefined])
    // Another port, another host (the update feed), or a window's request: none.
    expect(select('payroll.example.com:8443', [OLD]).answers).toEqual([undefined])
    expect(select('updates.example.com:443', [OLD]).answers).toEqual([undefined])
    expect(select('payroll.example.com:443', [OLD], { id: 1 })).toEqual({
      prevented: true,
      answers: [undefined],
    })
    choice.set(undefined)
    expect(select('payroll.example.com:443', [OLD]).answers).toEqual([undefined])
  })
})
