import react from '@vitejs/plugin-react'
import { createHash } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer as createHttpServer, type Server } from 'node:http'
import { join, resolve } from 'node:path'
import type { Page } from 'playwright-core'
import { createServer, type Plugin, type ViteDevServer } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cspMetaPlugin } from '../../scripts/csp-meta-plugin'
import {
  contentSecurityPolicy,
  REACT_REFRESH_PREAMBLE_HASH,
} from '../../src/main/shell/window-and-startup/window-security'
import { launchChromium, type LaunchedChromium } from '../helpers/chromium'
import { ensureRendererBuilt } from '../helpers/harness/build-renderer'

/**
 * The renderer's Content-Security-Policy as it really lands in Chromium. The production build carries the policy
 * in a <meta> (and main adds it as a header); under `npm start` the page comes from Vite's dev server with no
 * <meta> and the development policy as main's header. Here the renderer's dev server runs on 127.0.0.1 with that
 * header on every response, as main's onHeadersReceived sets it, and the page must come up styled, with hot
 * reload connected and no policy violation; taking away either relaxation must break it.
 */

const ROOT = resolve(__dirname, '../..')
const RENDERER_ROOT = join(ROOT, 'src/renderer')
const WAIT_MS = 30_000

interface Violation {
  readonly directive: string
  readonly blocked: string
}

interface PageVisit {
  readonly violations: Violation[]
  readonly errors: string[]
  /** Resolves when Vite's client reports its hot-reload socket open. */
  readonly hmrConnected: Promise<void>
  readonly page: Page
}

/** Sets the policy on every dev-server response, the way main's onHeadersReceived does in `npm start`. */
function policyHeaderPlugin(policy: () => string): Plugin {
  return {
    name: 'test:csp-header',
    configureServer(server) {
      server.middlewares.use((_request, response, next) => {
        response.setHeader('Content-Security-Policy', policy())
        next()
      })
    },
  }
}

let browser: LaunchedChromium
let server: ViteDevServer
let httpServer: Server
let cacheDir: string
let origin: string
let policy = contentSecurityPolicy('development')

beforeAll(async () => {
  browser = await launchChromium()
  // A private optimizer cache, so this test neither reads nor disturbs the one `npm start` uses; inside
  // node_modules like that one, where the React plugin leaves the prebundled dependencies alone.
  cacheDir = await mkdtemp(join(ROOT, 'node_modules', '.vite-csp-test-'))
  // Our own server on port 0, its port read back; Vite serves through it in middleware mode and puts its
  // hot-reload socket on it too, so the client connects to the page's own origin, as under `npm start`.
  httpServer = createHttpServer()
  await new Promise<void>((resolveListen) => httpServer.listen(0, '127.0.0.1', resolveListen))
  const { port } = httpServer.address() as { port: number }
  origin = `http://127.0.0.1:${port}`
  server = await createServer({
    configFile: false,
    root: RENDERER_ROOT,
    cacheDir,
    logLevel: 'error',
    appType: 'spa',
    // The renderer section's plugins, as `npm start` loads them.
    plugins: [react(), cspMetaPlugin(), policyHeaderPlugin(() => policy)],
    server: { middlewareMode: true, hmr: { server: httpServer }, watch: null },
  })
  httpServer.on('request', server.middlewares)
}, 120_000)

afterAll(async () => {
  await server?.close()
  await new Promise((resolveClose) => (httpServer ? httpServer.close(resolveClose) : resolveClose(undefined)))
  await browser?.close()
  if (cacheDir) await rm(cacheDir, { recursive: true, force: true })
})

/** Opens the dev server's page in a fresh tab and records every CSP violation and page error. */
async function visit(): Promise<PageVisit> {
  const page = await browser.context.newPage()
  const violations: Violation[] = []
  const errors: string[] = []
  // A binding outlives the reloads Vite's dependency optimizer may trigger, so no violation goes unrecorded.
  await page.exposeBinding('__reportCspViolation', (_source, directive: string, blocked: string) => {
    violations.push({ directive, blocked })
  })
  // Page code is passed as text: this project's TypeScript for tests has no DOM types.
  await page.addInitScript(
    "document.addEventListener('securitypolicyviolation', (event) => window.__reportCspViolation(event.violatedDirective, event.blockedURI))",
  )
  page.on('pageerror', (error) => errors.push(error.message))
  const hmrConnected = new Promise<void>((resolveConnected) => {
    page.on('console', (message) => {
      if (message.text().includes('[vite] connected.')) resolveConnected()
    })
  })
  await page.goto(`${origin}/`, { timeout: WAIT_MS })
  return { violations, errors, hmrConnected, page }
}

/** The styles app.css gives <body>; unstyled, Chromium's defaults (8px margin, content-box) remain. */
async function bodyStyle(page: Page): Promise<{ margin: string; boxSizing: string }> {
  return page.evaluate<{ margin: string; boxSizing: string }>(
    '(() => { const style = getComputedStyle(document.body); return { margin: style.margin, boxSizing: style.boxSizing } })()',
  )
}

interface ParsedHtml {
  /** The content of each CSP <meta>. */
  readonly cspMetas: string[]
  readonly inlineScripts: string[]
  /** The <head>'s elements in order, a CSP <meta> as meta[http-equiv=...]. */
  readonly headTags: string[]
}

/** Parses HTML with Chromium's own parser. */
async function parseHtml(page: Page, html: string): Promise<ParsedHtml> {
  return page.evaluate<ParsedHtml>(`(() => {
    const doc = new DOMParser().parseFromString(${JSON.stringify(html)}, 'text/html')
    const isCsp = (element) => (element.getAttribute('http-equiv') || '').toLowerCase() === 'content-security-policy'
    return {
      cspMetas: [...doc.querySelectorAll('meta')].filter(isCsp).map((meta) => meta.getAttribute('content') || ''),
      inlineScripts: [...doc.querySelectorAll('script:not([src])')].map((script) => script.textContent || ''),
      headTags: [...doc.head.children].map((element) =>
        isCsp(element) ? 'meta[http-equiv=' + element.getAttribute('http-equiv') + ']' : element.localName,
      ),
    }
  })()`)
}

function sha256Source(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`
}

describe('the development CSP under the real Vite dev server', () => {
  it('serves index.html with no CSP <meta>, and its only inline script is the preamble the policy names', async () => {
    const page = await browser.context.newPage()
    try {
      const html = await (await fetch(`${origin}/`)).text()
      const { cspMetas, inlineScripts } = await parseHtml(page, html)
      expect(cspMetas).toEqual([])
      expect(
        inlineScripts.map(sha256Source),
        "the dev server's inline scripts; if @vitejs/plugin-react changed its preamble, put the new hash in REACT_REFRESH_PREAMBLE_HASH",
      ).toEqual([REACT_REFRESH_PREAMBLE_HASH])
    } finally {
      await page.close()
    }
  })

  it('shows the page styled, runs React and hot reload, and violates nothing', async () => {
    policy = contentSecurityPolicy('development')
    const { page, violations, errors, hmrConnected } = await visit()
    try {
      // Without window.rosterdesk the app says it runs only inside RosterDesk: proof React rendered.
      await page.getByText('works only inside the RosterDesk app').waitFor({ timeout: WAIT_MS })
      await expect
        .poll(() => bodyStyle(page), { timeout: WAIT_MS })
        .toEqual({ margin: '0px', boxSizing: 'border-box' })
      await withTimeout(hmrConnected, WAIT_MS, 'Vite client never reported its hot-reload socket connected')
      expect(violations).toEqual([])
      expect(errors).toEqual([])
    } finally {
      await page.close()
    }
  })

  it('needs the preamble hash: without it the refresh preamble is refused and React never renders', async () => {
    policy = contentSecurityPolicy('development').replace(` ${REACT_REFRESH_PREAMBLE_HASH}`, '')
    const { page, violations } = await visit()
    try {
      await expect
        .poll(() => violations.map((v) => v.directive), { timeout: WAIT_MS })
        .toContain('script-src-elem')
      expect(await page.getByText('works only inside the RosterDesk app').count()).toBe(0)
    } finally {
      await page.close()
    }
  })

  it("needs 'unsafe-inline' styles: without it Vite's <style> elements are refused and the page is unstyled", async () => {
    policy = contentSecurityPolicy('development').replace(" 'unsafe-inline'", '')
    const { page, violations } = await visit()
    try {
      await page.getByText('works only inside the RosterDesk app').waitFor({ timeout: WAIT_MS })
      await expect
        .poll(() => violations.map((v) => v.directive), { timeout: WAIT_MS })
        .toContain('style-src-elem')
      expect(await bodyStyle(page)).toEqual({ margin: '8px', boxSizing: 'content-box' })
    } finally {
      await page.close()
    }
  })
})

describe('the production build', () => {
  it("carries exactly one CSP <meta>, equal to contentSecurityPolicy('production'), ahead of every script", async () => {
    const rendererDir = await ensureRendererBuilt()
    const html = await readFile(join(rendererDir, 'index.html'), 'utf8')
    const page = await browser.context.newPage()
    try {
      const { cspMetas, headTags } = await parseHtml(page, html)
      expect(cspMetas).toEqual([contentSecurityPolicy('production')])
      const metaAt = headTags.indexOf('meta[http-equiv=Content-Security-Policy]')
      const firstResource = headTags.findIndex((tag) => tag === 'script' || tag === 'link')
      expect(metaAt).toBeGreaterThanOrEqual(0)
      expect(firstResource).toBeGreaterThan(metaAt)
    } finally {
      await page.close()
    }
  })
})

async function withTimeout(promise: Promise<void>, ms: number, message: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms)
  })
  try {
    await Promise.race([promise, timeout])
  } finally {
    clearTimeout(timer)
  }
}
