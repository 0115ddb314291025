import { describe, expect, it } from 'vitest'
import { type MainProcess, useMainProcesses } from './main-process'

/**
 * Issue 31, point 2, in the shipped main bundle against the Electron stand-in: a change from the window that sends
 * RosterDesk's requests to a new service address, proxy or PAC address is applied only once the clerk confirmed
 * it in main's own dialog (dialog.showMessageBox on the window, naming the new host); and no settings change from
 * the window can name a certificate file.
 */

type Result<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } }
interface View {
  readonly settings: {
    environment: string
    baseUrls: { production: string }
    proxyUrl: string
    pageSize: number
  }
}

const shell = useMainProcesses()

async function started(): Promise<MainProcess> {
  const main = shell.start({ userData: shell.freshDir('confirm') })
  await main.windowReady()
  return main
}

async function settings(main: MainProcess): Promise<View['settings']> {
  const result = (await main.invoke('settings:get')) as Result<View>
  if (!result.ok) throw new Error(result.error.message)
  return result.value.settings
}

describe('a new address from the window, confirmed in main’s own dialog', () => {
  it('asks once, naming the new host, and changes nothing unless the clerk confirms', async () => {
    const main = await started()
    const move = { environment: 'production', baseUrls: { production: 'https://payroll.attacker.example' } }

    await main.answerMessageBoxes('dismiss')
    expect(await main.invoke('settings:update', move)).toMatchObject({
      ok: false,
      error: { code: 'cancelled', message: 'Not saved: you did not confirm the new address.' },
    })
    const [asked] = (await main.snapshot()).messageBoxes
    expect(asked).toMatchObject({
      type: 'warning',
      onWindow: true,
      message: 'Send RosterDesk’s requests to the payroll service at payroll.attacker.example?',
      buttons: ['Change', 'Cancel'],
      defaultId: 1,
      cancelId: 1,
    })
    expect(await settings(main)).toMatchObject({ environment: 'demo', baseUrls: { production: '' } })

    await main.answerMessageBoxes(0)
    expect(await main.invoke('settings:update', move)).toMatchObject({ ok: true })
    expect(await settings(main)).toMatchObject({
      environment: 'production',
      baseUrls: { production: 'https://payroll.attacker.example' },
    })
    expect((await main.snapshot()).messageBoxes).toHaveLength(2)

    // A change that sends nothing to a new host is not asked about.
    expect(await main.invoke('settings:update', { pageSize: 50 })).toMatchObject({ ok: true })
    expect((await main.snapshot()).messageBoxes).toHaveLength(2)
  })

  it('asks for a proxy and a PAC address too, and a box left unanswered keeps the settings (Cancel is the default)', async () => {
    const main = await started()
    const proxy = { proxyMode: 'fixed', proxyUrl: 'http://proxy.attacker.example:8080' }
    expect(await main.invoke('settings:update', proxy)).toMatchObject({
      ok: false,
      error: { code: 'cancelled' },
    })
    expect((await main.snapshot()).messageBoxes.at(-1)?.message).toBe(
      'Send RosterDesk’s requests to the proxy proxy.attacker.example:8080?',
    )
    expect((await settings(main)).proxyUrl).toBe('')

    await main.answerMessageBoxes(0)
    const pac = { proxyMode: 'pac', pacUrl: 'http://wpad.attacker.example/proxy.pac' }
    expect(await main.invoke('settings:update', pac)).toMatchObject({ ok: true })
    expect((await main.snapshot()).messageBoxes.at(-1)?.message).toBe(
      'Send RosterDesk’s requests to the PAC file at wpad.attacker.example?',
    )
  })
})

describe('the certificate file, never from the window', () => {
  it('refuses a settings:update that names a certificate file', async () => {
    const main = await started()
    expect(
      await main.invoke('settings:update', { extraCertificatesFile: '\\\\attacker\\share\\ca.pem' }),
    ).toMatchObject({
      ok: false,
      error: {
        code: 'validation',
        message:
          'The extra trusted certificates are chosen with “Choose file…” in Settings → Network, never by a settings change.',
      },
    })
    expect((await main.snapshot()).messageBoxes).toEqual([])
  })
})
