import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { ProxySignInAnswer } from '../../src/shared/connection-report'
import { PROXY_RETRY_TEXT } from '../../src/renderer/src/components/proxy-sign-in-dialog'
import { makeEmployees } from '../helpers/fake/fake-employees'
import { renderWithCore, setUpAppTests } from './render-app'

setUpAppTests()

const PROXY = 'proxy.corp.example:8080'
const TITLE = `The proxy ${PROXY} asks you to sign in`

async function renderSignedIn() {
  const rendered = renderWithCore({ serviceEmployees: makeEmployees(20), synced: true, signedIn: true })
  await screen.findByText('20 of 20 employees')
  return rendered
}

const dialog = (name = TITLE): HTMLElement => screen.getByRole('dialog', { name })
const userName = (): HTMLInputElement => within(dialog()).getByLabelText('User name')
const password = (): HTMLInputElement => within(dialog()).getByLabelText('Password')

describe('the proxy sign-in dialog', () => {
  it('is a labelled modal dialog with the realm in the proxy’s words, the focus in the user name, and Esc cancels', async () => {
    const { core } = await renderSignedIn()
    const search = screen.getByRole('searchbox', { name: 'Search employees' })
    search.focus()
    let answer: ProxySignInAnswer | undefined
    act(() => {
      void core.network
        .askProxySignIn({ proxy: PROXY, realm: 'Corp Web Gateway', scheme: 'basic', retry: false })
        .then((given) => (answer = given))
    })
    const shown = await screen.findByRole('dialog', { name: TITLE })
    expect(shown.getAttribute('aria-modal')).toBe('true')
    // The description is read with the name: the proxy's own words, quoted, and what this sign-in is for.
    const description = document.getElementById(shown.getAttribute('aria-describedby') ?? '')
    expect(description?.textContent).toContain('The proxy says: “Corp Web Gateway”')
    expect(description?.textContent).not.toContain(PROXY_RETRY_TEXT)
    expect(within(shown).queryByText(PROXY_RETRY_TEXT)).toBeNull()
    await waitFor(() => expect(document.activeElement).toBe(userName()))
    expect(password().type).toBe('password')
    expect(
      (within(shown).getByRole('checkbox', { name: 'Remember on this computer' }) as HTMLInputElement)
        .checked,
    ).toBe(false)

    fireEvent.change(userName(), { target: { value: 'typed but cancelled' } })
    fireEvent.keyDown(userName(), { key: 'Escape' })
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    await waitFor(() => expect(answer).toBeNull())
    expect(core.network.proxyAnswers).toEqual([{ id: 'challenge-1', answer: null }])
    // The focus goes back to where the clerk was.
    expect(document.activeElement).toBe(search)
  })

  it('keeps Tab inside the dialog', async () => {
    const { core } = await renderSignedIn()
    act(() => void core.network.askProxySignIn({ proxy: PROXY, realm: '', scheme: 'basic', retry: false }))
    await screen.findByRole('dialog', { name: TITLE })
    const signIn = within(dialog()).getByRole('button', { name: 'Sign in' })
    signIn.focus()
    fireEvent.keyDown(signIn, { key: 'Tab' })
    expect(document.activeElement).toBe(userName())
    fireEvent.keyDown(userName(), { key: 'Tab', shiftKey: true })
    expect(document.activeElement).toBe(signIn)
    // No realm given: no quoted line.
    expect(within(dialog()).queryByText(/The proxy says/)).toBeNull()
  })

  it('answers with the user name, password and Remember on Enter, and the proxy is then remembered', async () => {
    const { core } = await renderSignedIn()
    let answer: ProxySignInAnswer | undefined
    act(() => {
      void core.network
        .askProxySignIn({ proxy: PROXY, realm: 'Corp', scheme: 'basic', retry: false })
        .then((given) => (answer = given))
    })
    await screen.findByRole('dialog', { name: TITLE })
    fireEvent.change(userName(), { target: { value: 'CORP\\jclerk' } })
    fireEvent.change(password(), { target: { value: 'pässword 1' } })
    fireEvent.click(within(dialog()).getByRole('checkbox', { name: 'Remember on this computer' }))
    // Enter in a field submits the dialog's form.
    fireEvent.submit(password())
    await waitFor(() =>
      expect(answer).toEqual({ username: 'CORP\\jclerk', password: 'pässword 1', remember: true }),
    )
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(
      core.calls.filter((call) => call.channel === 'network:answer-proxy-sign-in').map((call) => call.args),
    ).toEqual([['challenge-1', { username: 'CORP\\jclerk', password: 'pässword 1', remember: true }]])
    expect(core.network.rememberedProxies()).toEqual([PROXY])

    // Settings → Network lists it, to forget.
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }))
    const group = await screen.findByRole('group', { name: 'Remembered proxy sign-ins' })
    expect(within(group).getByRole('button', { name: `Forget ${PROXY}` })).toBeTruthy()
  })

  it('asks for a user name before sending anything', async () => {
    const { core } = await renderSignedIn()
    act(() => void core.network.askProxySignIn({ proxy: PROXY, realm: '', scheme: 'basic', retry: false }))
    await screen.findByRole('dialog', { name: TITLE })
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Sign in' }))
    const problem = await within(dialog()).findByText('Enter the user name for this proxy.')
    expect(userName().getAttribute('aria-describedby')).toBe(problem.id)
    expect(userName().getAttribute('aria-invalid')).toBe('true')
    expect(document.activeElement).toBe(userName())
    expect(core.calls.some((call) => call.channel === 'network:answer-proxy-sign-in')).toBe(false)
    expect(core.network.pendingProxySignIns()).toEqual(['challenge-1'])
  })

  it('says the proxy refused what was given when it asks again, and how a Windows sign-in is written', async () => {
    const { core } = await renderSignedIn()
    act(() => void core.network.askProxySignIn({ proxy: PROXY, realm: 'Corp', scheme: 'NTLM', retry: true }))
    const shown = await screen.findByRole('dialog', { name: TITLE })
    expect(within(shown).getByText(PROXY_RETRY_TEXT)).toBeTruthy()
    const description = document.getElementById(shown.getAttribute('aria-describedby') ?? '')
    expect(description?.textContent).toContain(PROXY_RETRY_TEXT)
    expect(document.getElementById('proxy-sign-in-username-hint')?.textContent).toBe(
      'Your Windows sign-in; with its domain if IT says so, as DOMAIN\\name.',
    )
  })

  it('asks several requests one after another, each with empty fields and the focus in its user name', async () => {
    const { core } = await renderSignedIn()
    const answers: (ProxySignInAnswer | undefined)[] = []
    act(() => {
      void core.network
        .askProxySignIn({ proxy: PROXY, realm: 'Corp', scheme: 'basic', retry: false })
        .then((given) => (answers[0] = given))
      void core.network
        .askProxySignIn({
          proxy: 'proxy-2.corp.example:3128',
          realm: 'Branch',
          scheme: 'basic',
          retry: false,
        })
        .then((given) => (answers[1] = given))
    })
    await screen.findByRole('dialog', { name: TITLE })
    expect(screen.getAllByRole('dialog')).toHaveLength(1)
    expect(within(dialog()).getByText('1 more proxy request waits after this one.')).toBeTruthy()
    fireEvent.change(userName(), { target: { value: 'first' } })
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Sign in' }))

    const second = await screen.findByRole('dialog', {
      name: 'The proxy proxy-2.corp.example:3128 asks you to sign in',
    })
    expect(answers[0]).toEqual({ username: 'first', password: '', remember: false })
    expect(within(second).queryByText(/more proxy request/)).toBeNull()
    const secondUser = within(second).getByLabelText('User name') as HTMLInputElement
    expect(secondUser.value).toBe('')
    await waitFor(() => expect(document.activeElement).toBe(secondUser))
    fireEvent.click(within(second).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(answers[1]).toBeNull()
  })

  it('stays open and says so when the answer could not reach main', async () => {
    const { core } = await renderSignedIn()
    const { FakeIpcError } = await import('../helpers/fake/fake-api')
    const answerHandler = core.handlers['network:answer-proxy-sign-in']
    core.handlers['network:answer-proxy-sign-in'] = async () => {
      throw new FakeIpcError('internal', 'RosterDesk could not pass the answer on. Try again.')
    }
    act(() => void core.network.askProxySignIn({ proxy: PROXY, realm: '', scheme: 'basic', retry: false }))
    await screen.findByRole('dialog', { name: TITLE })
    fireEvent.change(userName(), { target: { value: 'jclerk' } })
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Sign in' }))
    expect((await within(dialog()).findByRole('alert')).textContent).toBe(
      'RosterDesk could not pass the answer on. Try again.',
    )
    core.handlers['network:answer-proxy-sign-in'] = answerHandler
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Sign in' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(core.network.proxyAnswers).toEqual([
      { id: 'challenge-1', answer: { username: 'jclerk', password: '', remember: false } },
    ])
  })

  it('opens over another modal dialog, which gets the focus back when it closes: Esc closes only the newest', async () => {
    const { core, events } = await renderSignedIn()
    act(() => events.emit('app:command', 'shortcuts'))
    const shortcuts = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' })
    await waitFor(() => expect(shortcuts.contains(document.activeElement)).toBe(true))
    const inShortcuts = document.activeElement

    let answer: ProxySignInAnswer | undefined
    act(() => {
      void core.network
        .askProxySignIn({ proxy: PROXY, realm: '', scheme: 'basic', retry: false })
        .then((given) => (answer = given))
    })
    await screen.findByRole('dialog', { name: TITLE })
    // The older dialog does not pull the focus back to itself.
    await waitFor(() => expect(document.activeElement).toBe(userName()))
    fireEvent.keyDown(userName(), { key: 'Escape' })
    await waitFor(() => expect(screen.queryByRole('dialog', { name: TITLE })).toBeNull())
    await waitFor(() => expect(answer).toBeNull())
    expect(screen.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBe(shortcuts)
    expect(document.activeElement).toBe(inShortcuts)
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' })
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })
})
