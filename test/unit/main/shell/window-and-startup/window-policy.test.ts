import { describe, expect, it } from 'vitest'
import {
  APP_ORIGIN,
  appOrigins,
  REACT_REFRESH_PREAMBLE_HASH,
  contentSecurityPolicy,
  isTrustedIpcSender,
  permissionDecision,
  PRINT_PARTITION,
  printWebPreferences,
  resolveAppFile,
  secureWebPreferences,
  shouldBlockNavigation,
  windowOpenDecision,
} from '../../../../../src/main/shell/window-and-startup/window-security'

/** The checklist every window is held to, the app's and the hidden print window alike. */
const CHECKLIST = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  experimentalFeatures: false,
  disableBlinkFeatures: 'Auxclick',
} as const

describe('window security policy (Electron security checklist)', () => {
  it('isolates and sandboxes the renderer and never gives it Node', () => {
    const prefs = secureWebPreferences('/app/out/preload/index.js')
    expect(prefs).toMatchObject({ preload: '/app/out/preload/index.js', ...CHECKLIST })
  })

  it('holds the print window to the same checklist, with no preload, no JavaScript and a session of its own', () => {
    const prefs = printWebPreferences()
    expect(prefs).toMatchObject(CHECKLIST)
    expect(prefs).not.toHaveProperty('preload')
    expect(prefs.javascript).toBe(false)
    expect(prefs.partition).toBe(PRINT_PARTITION)
    expect(PRINT_PARTITION.startsWith('persist:'), 'an in-memory session').toBe(false)
    // Only those differ from the app window's.
    const { preload: _preload, ...app } = secureWebPreferences('/p')
    expect(prefs).toStrictEqual({ ...app, javascript: false, partition: PRINT_PARTITION })
  })

  it('ships a production CSP that allows only the app itself', () => {
    const csp = contentSecurityPolicy('production')
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("script-src 'self';")
    expect(csp).toContain("connect-src 'self';")
    expect(csp).toContain("object-src 'none'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).not.toMatch(/unsafe-(inline|eval)/)
    expect(csp).not.toMatch(/https?:|\*/)
  })

  it('loosens the CSP in development only by the refresh preamble and inline styles', () => {
    const production = contentSecurityPolicy('production')
    const development = contentSecurityPolicy('development')
    const directives = (csp: string): Map<string, string> =>
      new Map(csp.split('; ').map((d) => [d.split(' ')[0]!, d.slice(d.indexOf(' ') + 1)]))
    const prod = directives(production)
    const dev = directives(development)
    expect([...dev.keys()]).toEqual([...prod.keys()])
    for (const [name, value] of prod) {
      if (name === 'script-src') expect(dev.get(name)).toBe(`${value} ${REACT_REFRESH_PREAMBLE_HASH}`)
      else if (name === 'style-src') expect(dev.get(name)).toBe(`${value} 'unsafe-inline'`)
      else expect(dev.get(name), name).toBe(value)
    }
    expect(REACT_REFRESH_PREAMBLE_HASH).toMatch(/^'sha256-[A-Za-z0-9+/]{43}='$/)
    expect(development).not.toMatch(/unsafe-eval|https?:|wss?:|\*/)
  })

  it('blocks navigation to anything but the app pages', () => {
    const origins = appOrigins(undefined)
    expect(shouldBlockNavigation(`${APP_ORIGIN}/index.html`, origins)).toBe(false)
    expect(shouldBlockNavigation('https://evil.example/phish', origins)).toBe(true)
    expect(shouldBlockNavigation('file:///etc/passwd', origins)).toBe(true)
    expect(shouldBlockNavigation('rosterdesk-app://other-host/index.html', origins)).toBe(true)
    expect(shouldBlockNavigation('not a url', origins)).toBe(true)
    expect(shouldBlockNavigation('http://localhost:5173/', origins)).toBe(true)
    expect(shouldBlockNavigation('http://localhost:5173/', appOrigins('http://localhost:5173'))).toBe(false)
  })

  it('denies every window.open and never forwards page URLs to the system browser', () => {
    expect(windowOpenDecision()).toEqual({ action: 'deny' })
  })

  it('trusts IPC only from the main frame of a known window showing an app page', () => {
    const trusted = new Set([7])
    const origins = appOrigins(undefined)
    const ok = { webContentsId: 7, frameUrl: `${APP_ORIGIN}/index.html`, isMainFrame: true }
    expect(isTrustedIpcSender(ok, trusted, origins)).toBe(true)
    expect(isTrustedIpcSender({ ...ok, webContentsId: 8 }, trusted, origins)).toBe(false)
    expect(isTrustedIpcSender({ ...ok, isMainFrame: false }, trusted, origins)).toBe(false)
    expect(isTrustedIpcSender({ ...ok, frameUrl: 'https://evil.example/' }, trusted, origins)).toBe(false)
    expect(isTrustedIpcSender({ ...ok, frameUrl: undefined }, trusted, origins)).toBe(false)
  })

  it('serves renderer files from the app protocol without escaping the renderer folder', () => {
    const dir = '/app/out/renderer'
    expect(resolveAppFile(`${APP_ORIGIN}/`, dir)).toBe('/app/out/renderer/index.html')
    expect(resolveAppFile(`${APP_ORIGIN}/assets/index-abc.js`, dir)).toBe(
      '/app/out/renderer/assets/index-abc.js',
    )
    // The URL parser already folds `..`; what remains must still resolve inside the folder.
    expect(resolveAppFile(`${APP_ORIGIN}/../../etc/passwd`, dir)).toBe('/app/out/renderer/etc/passwd')
    expect(resolveAppFile(`${APP_ORIGIN}/assets/%2e%2e/%2e%2e/secret`, dir)).toBe('/app/out/renderer/secret')
    expect(resolveAppFile(`${APP_ORIGIN}/assets/%2e%2e%2f%2e%2e%2fsecret`, dir)).toBeUndefined()
    expect(resolveAppFile(`${APP_ORIGIN}/a%5cb`, dir)).toBeUndefined()
    expect(resolveAppFile('rosterdesk-app://elsewhere/index.html', dir)).toBeUndefined()
    expect(resolveAppFile('https://rosterdesk/index.html', dir)).toBeUndefined()
    expect(resolveAppFile(`${APP_ORIGIN}/assets/x.js`, 'C:\\app\\renderer', '\\')).toBe(
      'C:\\app\\renderer\\assets\\x.js',
    )
  })
})

describe('permissions (issue 23: copy works in Electron)', () => {
  const origins = appOrigins(undefined)
  const page = `${APP_ORIGIN}/index.html`
  const ask = (over: Partial<Parameters<typeof permissionDecision>[0]> = {}): boolean =>
    permissionDecision(
      {
        webContentsId: 7,
        permission: 'clipboard-sanitized-write',
        requestingUrl: page,
        isMainFrame: true,
        ...over,
      },
      7,
      origins,
    )

  it("grants the app's own top-level page writing text to the clipboard", () => {
    expect(ask()).toBe(true)
    // A check names the origin only.
    expect(ask({ requestingUrl: APP_ORIGIN })).toBe(true)
  })

  it('refuses every other permission, clipboard reading included', () => {
    for (const permission of [
      'clipboard-read',
      'media',
      'notifications',
      'geolocation',
      'openExternal',
      'fullscreen',
    ])
      expect(ask({ permission }), permission).toBe(false)
  })

  it('refuses a subframe, another page, another window and an unknown asker', () => {
    expect(ask({ isMainFrame: false })).toBe(false)
    expect(ask({ requestingUrl: 'https://evil.example/' })).toBe(false)
    expect(ask({ requestingUrl: undefined })).toBe(false)
    expect(ask({ webContentsId: 8 })).toBe(false)
    expect(ask({ webContentsId: undefined })).toBe(false)
  })
})
