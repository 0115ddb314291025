import { escapeHtml } from './http'

export const AUTHORIZE_PATH = '/openapi/oauthv1/authorize'

const SCOPE_TEXT: Readonly<Record<string, string>> = {
  read: 'See employee records: names, status, pay cycle and job details',
  write: 'Change employee records',
}

const STYLE = `
  body { font: 15px/1.5 system-ui, sans-serif; background: #f3f4f6; color: #111827; margin: 0; }
  main { max-width: 28rem; margin: 4rem auto; background: #fff; border-radius: 12px; padding: 2rem;
         box-shadow: 0 1px 3px rgb(0 0 0 / 0.12); }
  h1 { font-size: 1.25rem; margin: 0 0 1rem; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: 0 0 1rem; }
  dt { color: #6b7280; } dd { margin: 0; font-family: ui-monospace, monospace; word-break: break-all; }
  ul { padding-left: 1.25rem; } .sandbox { color: #92400e; font-size: .85rem; }
  .actions { display: flex; gap: .75rem; justify-content: flex-end; margin-top: 1.5rem; }
  button { font: inherit; padding: .5rem 1.25rem; border-radius: 8px; border: 1px solid #d1d5db;
           background: #fff; cursor: pointer; }
  button[value=approve] { background: #1d4ed8; border-color: #1d4ed8; color: #fff; }
  button:focus-visible { outline: 3px solid #93c5fd; outline-offset: 2px; }
`

function page(title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${content}
</main>
</body>
</html>
`
}

export interface ConsentView {
  readonly requestId: string
  readonly clientId: string
  readonly redirectUri: string
  readonly scopes: readonly string[]
}

/**
 * The form carries only an opaque, single-use request id: the parameters were validated and stored on
 * GET, so nothing the browser posts back can change where the code goes or what it grants.
 */
export function consentPage(view: ConsentView): string {
  const scopes = view.scopes
    .map(
      (scope) => `<li><strong>${escapeHtml(scope)}</strong>: ${escapeHtml(SCOPE_TEXT[scope] ?? scope)}</li>`,
    )
    .join('\n')
  return page(
    'Authorize RosterDesk Demo',
    `<h1>RosterDesk Demo wants to read employee data</h1>
<dl>
<dt>Client ID</dt><dd>${escapeHtml(view.clientId)}</dd>
<dt>Returns to</dt><dd>${escapeHtml(view.redirectUri)}</dd>
</dl>
<p>It asks for these permissions:</p>
<ul>
${scopes}
</ul>
<p class="sandbox">Sandbox payroll service: all employee data here is generated.</p>
<form method="post" action="${AUTHORIZE_PATH}">
<input type="hidden" name="requestId" value="${escapeHtml(view.requestId)}">
<div class="actions">
<button type="submit" name="decision" value="deny">Deny</button>
<button type="submit" name="decision" value="approve">Approve</button>
</div>
</form>`,
  )
}

/** Shown instead of redirecting when the redirect target itself cannot be trusted. */
export function errorPage(title: string, detail: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(detail)}</p>`)
}
