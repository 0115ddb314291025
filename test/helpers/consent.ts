/**
 * Plays the clerk's browser without a browser: loads the consent page an authorize URL leads to, submits its
 * Approve or Deny form, and returns where the service redirects (the callback URL the OS would hand the app).
 */
export async function answerConsent(authorizeUrl: string, decision: 'approve' | 'deny'): Promise<string> {
  const page = await fetch(authorizeUrl, { redirect: 'manual' })
  const html = await page.text()
  const requestId = /name="requestId" value="([^"]+)"/.exec(html)?.[1]
  if (page.status !== 200 || requestId === undefined) {
    throw new Error(`answerConsent: expected the consent page, got HTTP ${page.status}`)
  }
  const form = new URL(authorizeUrl)
  const answer = await fetch(`${form.origin}${form.pathname}`, {
    method: 'POST',
    body: new URLSearchParams({ requestId, decision }),
    redirect: 'manual',
  })
  const location = answer.headers.get('location')
  if (location === null) throw new Error(`answerConsent: expected a redirect, got HTTP ${answer.status}`)
  return location
}
