import type { EmployeeRow } from '../../../../../src/shared/domain/rows'
import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ExportRequest } from '../../../../../src/shared/domain/export'
import { createAppCore } from '../../../../../src/main/core/session/create-app-core'
import { coreWorkerRunners } from '../../../../../src/main/core-host/worker/worker-runners'
import { dispatchInvoke, type EventSink } from '../../../../../src/main/core/ipc/dispatch'
import { createLogger } from '../../../../../src/main/core/log/logger'
import { PRINT_MAX_ROWS, escapeHtml, printPageHtml } from '../../../../../src/main/core/export/print-page'
import { ExportRecord } from '../../../../../src/main/core/export-record/export-record'
import type { PagePrinter, PrintOutcome } from '../../../../../src/main/core/export/print-view'
import { MemorySecretStore } from '../../../../../src/main/core/secrets/secret-store'
import { MemoryKeyValueBackend, SettingsStore } from '../../../../../src/main/core/settings/settings-store'
import { answerConsent } from '../../../../helpers/consent'
import { startTestSandbox } from '../../../../helpers/sandbox'
import { ABOUT, TRICKY_COLUMNS, TRICKY_ROWS } from '../../../../helpers/export-fixtures'
import { testCoreWorkerEntry } from '../../../../helpers/core-worker-bundle'
import { TEST_CACHE_KEY } from '../../../../helpers/test-cache-key'

const HOSTILE_ROWS = [
  {
    UUID: 'a0000000-0000-4000-8000-000000000101',
    firstName: '<script>alert("first")</script>',
    lastName: '"><img src=x onerror=alert(1)>',
    employeeStatus: 'Active',
    employeeNumber: '0004711',
    annualSalary: 58234.5,
    // A right-to-left override: shown reversed inside its cell, never reordering the cells beside it.
    note: 'invoice\u202Efdp.exe',
  },
]
const HOSTILE_COLUMNS = [
  { key: 'firstName', label: 'First name', kind: 'text' as const },
  { key: 'lastName', label: 'Last <b>name</b>', kind: 'text' as const },
  { key: 'employeeNumber', label: 'Employee number', kind: 'text' as const },
  { key: 'annualSalary', label: 'Annual salary', kind: 'number' as const },
  { key: 'note', label: 'Note', kind: 'text' as const },
]

/** The text between `<tag ...>` and `</tag>` of the first such element. */
function element(html: string, tag: string): string {
  const match = new RegExp(`<${tag}[^>]*>([\\s\\S]*?)</${tag}>`).exec(html)
  return match?.[1] ?? ''
}

describe('the print page', () => {
  it('escapes every piece of text, so markup from the service stays text', () => {
    const html = printPageHtml({
      about: { ...ABOUT, profile: 'Acme <Ltd> & "Sons"', search: { text: '<script>x</script>' } },
      columns: HOSTILE_COLUMNS,
      rows: HOSTILE_ROWS,
      total: 1,
    })
    // The only elements are the page's own: no script, image or event handler came through.
    expect(html).not.toMatch(/<script/i)
    expect(html).not.toMatch(/<img/i)
    expect(html).not.toMatch(/<b>/)
    expect(html).toContain('&lt;script&gt;alert(&quot;first&quot;)&lt;/script&gt;')
    expect(html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;')
    expect(html).toContain('Last &lt;b&gt;name&lt;/b&gt;')
    expect(html).toContain('Acme &lt;Ltd&gt; &amp; &quot;Sons&quot;')
    expect(html).toContain('&quot;&lt;script&gt;x&lt;/script&gt;&quot; in names and IDs')
    // The override character is kept (it is the name as sent) inside its own cell, a bidi paragraph of its own.
    expect(html).toContain('<td class="nw">invoice\u202Efdp.exe</td>')
    expect(html).toMatch(/td \{[^}]*unicode-bidi: plaintext/)
    expect(escapeHtml('a\u0000b\u0007c')).toBe('abc')
  })

  it('allows only its own style: a CSP naming the style by its hash, nothing else loads', () => {
    const html = printPageHtml({ about: ABOUT, columns: TRICKY_COLUMNS, rows: TRICKY_ROWS, total: 8 })
    const css = element(html, 'style')
    const hash = createHash('sha256').update(css, 'utf8').digest('base64')
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'sha256-${hash}'">`,
    )
    expect(html.match(/<style/g)).toHaveLength(1)
    expect(html).not.toMatch(/ style=|src=|href=/)
  })

  it('heads the table with the view, its filters and the print time, and repeats the header row on each page', () => {
    const html = printPageHtml({ about: ABOUT, columns: TRICKY_COLUMNS, rows: TRICKY_ROWS, total: 8 })
    expect(element(html, 'h1')).toBe('Employees')
    expect(element(html, 'title')).toBe('Employees – RosterDesk')
    const facts = element(html, 'dl')
    expect(facts).toContain('<dt>Environment</dt><dd>Staging</dd>')
    expect(facts).toContain('<dt>Tenant</dt><dd>tenant-acme</dd>')
    expect(facts).toContain('<dt>Statuses</dt><dd>Active, On leave</dd>')
    expect(facts).toContain('<dt>Search</dt><dd>&quot;smi&quot; in Last name</dd>')
    expect(facts).toContain('<dt>Sorted by</dt><dd>Hire date, descending</dd>')
    expect(facts).toContain('<dt>Data synced</dt><dd>11/21/2026, 09:30 AM (UTC+01:00, Europe/Berlin)</dd>')
    expect(facts).toContain('<dt>Printed</dt><dd>11/22/2026, 10:45 AM (UTC+01:00, Europe/Berlin)</dd>')
    expect(html).toContain('<p class="count">8 employees</p>')
    // Column headers in a thead (Chromium repeats it atop every printed page), then one row per employee.
    expect(element(html, 'thead')).toBe(
      `<tr>${TRICKY_COLUMNS.map((c) => `<th scope="col"${c.kind === 'number' ? ' class="num"' : ''}>${c.label}</th>`).join('')}</tr>`,
    )
    expect(element(html, 'tbody').match(/<tr>/g)).toHaveLength(TRICKY_ROWS.length)
    // Money with two decimals, right-aligned; other numbers and text as the app shows them.
    expect(html).toContain('<td class="num nw">52,000.50</td>')
    expect(html).toContain('<td class="num nw">-1,250.75</td>')
    expect(html).toContain('<td class="nw">0004711</td>')
    // Short values without spaces stay on one line; longer text may wrap.
    expect(html).toContain('<td>tab\tinside, &quot;quoted&quot; and comma</td>')
    expect(html).toMatch(/@page \{\s*size: landscape;/)
    expect(html).toContain('content: "Page " counter(page) " of " counter(pages)')
  })

  it('writes an amount in the currency its row names, right-aligned, as the table does', () => {
    const columns = [
      { key: 'lastName', label: 'Last name', kind: 'text' as const },
      { key: 'annualSalary', label: 'Annual salary', kind: 'number' as const },
    ]
    const rows: EmployeeRow[] = [
      { UUID: 'a', lastName: 'Ng', annualSalary: 58234.5, currencyCode: 'EUR' },
      { UUID: 'b', lastName: 'Ode', annualSalary: 61000 },
    ]
    const html = printPageHtml({ about: ABOUT, columns, rows, total: 2 })
    expect(html).toContain('<td class="num">EUR\u00a058,234.50</td>')
    expect(html).toContain('<td class="num nw">61,000.00</td>')
    expect(html).toContain('<th scope="col" class="num">Annual salary</th>')
    // The profile's currency setting writes the amounts whose row names none; a row's own still wins.
    const withSetting = printPageHtml({ about: ABOUT, columns, rows, total: 2, currency: 'GBP' })
    expect(withSetting).toContain('>EUR\u00a058,234.50</td>')
    expect(withSetting).toContain('>GBP\u00a061,000.00</td>')
  })

  it('says when the page holds only the first rows of a larger view', () => {
    const html = printPageHtml({ about: ABOUT, columns: TRICKY_COLUMNS, rows: TRICKY_ROWS, total: 12_345 })
    expect(html).toContain(
      'Only the first 8 of 12,345 employees are printed. Narrow the view, or export it to Excel for all of them.',
    )
  })
})

describe('export:print over the real core', () => {
  const cleanups: Array<() => Promise<void> | void> = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  it("prints the view's rows through the injected printer, bounded, and reports the dialog's outcome", async () => {
    const sandbox = await startTestSandbox({ size: 300 })
    const dataDir = mkdtempSync(join(tmpdir(), 'rosterdesk-print-test-'))
    const events: string[] = []
    const sink: EventSink = { emit: (channel) => events.push(channel) }
    const logger = createLogger(() => undefined)
    const printed: Array<{ html: string; title: string }> = []
    let answer: PrintOutcome | Error = 'printed'
    const printPage: PagePrinter = async (page) => {
      printed.push(page)
      if (answer instanceof Error) throw answer
      return answer
    }
    const core = await createAppCore({
      cacheKey: TEST_CACHE_KEY,
      appInfo: { name: 'RosterDesk', version: '0.1.0', platform: 'linux' },
      dataDir,
      settings: new SettingsStore(new MemoryKeyValueBackend()),
      secrets: new MemorySecretStore(),
      fetch: (input, init) => fetch(input, init),
      openExternal: async (url) => {
        const callback = await answerConsent(url, 'approve')
        setTimeout(() => void core.handleCallbackUrl(callback), 0)
      },
      demo: {
        environment: { baseUrl: sandbox.baseUrl, ...sandbox.credentials },
        close: async () => undefined,
      },
      events: sink,
      logger,
      runners: coreWorkerRunners({ logger, entry: await testCoreWorkerEntry(), cacheKey: TEST_CACHE_KEY }),
      chooseExportPath: async () => undefined,
      revealFile: () => undefined,
      printPage,
    })
    cleanups.push(async () => {
      await core.close()
      await sandbox.close()
      rmSync(dataDir, { recursive: true, force: true })
    })
    const invoke = async (channel: string, ...args: unknown[]): Promise<unknown> => {
      const result = await dispatchInvoke(core.handlers, channel, args, logger)
      if (!result.ok) throw Object.assign(new Error(result.error.message), { ipc: result.error })
      return result.value
    }
    await invoke('auth:sign-in')
    await invoke('sync:start')
    await vi.waitFor(() => expect(events).toContain('sync:finished'), { timeout: 20_000 })

    const request = {
      kind: 'view',
      query: { sort: { column: 'lastName', order: 'asc' } },
      columns: ['lastName', 'firstName', 'annualSalary'],
      format: 'xlsx',
    }
    expect(await invoke('export:print', request)).toEqual({ status: 'printed', rows: 300, total: 300 })
    const page = printed[0]
    expect(page?.title).toBe('Employees')
    expect(page?.html.match(/<tr>/g)).toHaveLength(301)
    expect(page?.html).toContain('<dt>Profile</dt>')
    expect(page?.html).toContain('<dt>Sorted by</dt><dd>Last name, ascending</dd>')
    // In the view's order, as the export would write it.
    const first = (await invoke('employees:query', {
      limit: 1,
      sort: { column: 'lastName', order: 'asc' },
    })) as {
      rows: Array<Record<string, string>>
    }
    const firstCell = escapeHtml(first.rows[0]?.['lastName'] ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    expect(page?.html).toMatch(new RegExp(`<tbody>\\s*<tr><td[^>]*>${firstCell}</td>`))

    // Bounded: a larger view prints its first rows and says so.
    const cut = await core.exports.preparePrint(request as ExportRequest, { maxRows: 40 })
    expect([cut.rows, cut.total]).toEqual([40, 300])
    expect(cut.html.match(/<tr>/g)).toHaveLength(41)
    expect(cut.html).toContain('Only the first 40 of 300 employees are printed.')

    // Selected rows print what "Export selected rows" writes: those rows only, in the view's order.
    const window = (await invoke('employees:query', {
      offset: 10,
      limit: 3,
      sort: { column: 'lastName', order: 'asc' },
    })) as { rows: Array<Record<string, string>> }
    const picked = window.rows.map((row) => row['UUID'] ?? '')
    const chosen = await core.exports.preparePrint({
      ...request,
      uuids: [...picked].reverse(),
    } as ExportRequest)
    expect([chosen.rows, chosen.total]).toEqual([3, 3])
    expect(chosen.html.match(/<tr>/g)).toHaveLength(4)
    const printedNames = [...chosen.html.matchAll(/<tr><td[^>]*>([^<]*)<\/td>/g)].map((match) => match[1])
    expect(printedNames).toEqual(window.rows.map((row) => escapeHtml(row['lastName'] ?? '')))

    answer = 'cancelled'
    expect(await invoke('export:print', request)).toEqual({ status: 'cancelled' })
    answer = new Error('printer on fire')
    await expect(invoke('export:print', request)).rejects.toMatchObject({
      ipc: { code: 'internal', message: expect.stringContaining('could not be printed') },
    })
    // The export record notes the one print the dialog printed, never a cancelled or failed one.
    const { entries } = new ExportRecord({ dataDir, runtime: 'app', clock: { now: Date.now } }).read()
    expect(entries).toEqual([
      expect.objectContaining({
        what: 'print',
        rows: 300,
        columns: ['lastName', 'firstName', 'annualSalary'],
        sensitiveColumns: true,
        filters: { searched: false, sort: 'lastName asc' },
      }),
    ])
    // The contract's validation applies as for export:start.
    await expect(invoke('export:print', { ...request, columns: [] })).rejects.toMatchObject({
      ipc: { code: 'validation' },
    })
    expect(PRINT_MAX_ROWS).toBe(5000)
  }, 40_000)
})
