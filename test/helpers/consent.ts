import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'

/** One HTTP exchange on a connection of its own (`agent: false`), closed after it: status, Location, body. */
function browserRequest(
  url: URL,
  method: 'GET' | 'POST',
  body?: string,
): Promise<{ status: number; location: string | null; text: string }> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const outgoing = send(
      url,
      {
        method,
        agent: false,
        headers:
          body === undefined
            ? {}
            : {
                'content-type': 'application/x-www-form-urlencoded',
                'content-length': Buffer.byteLength(body),
              },
      },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            location: response.headers.location ?? null,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        )
        response.on('error', reject)
      },
    )
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}

/**
 * Plays the clerk's browser without a browser: loads the consent page an authorize URL leads to, submits its
 * Approve or Deny form, and returns where the service redirects (the callback URL the OS would hand the app).
 * Like a browser, another program, it uses connections of its own, never the test process's `fetch` pool, which
 * the app under test shares: a keep-alive connection left there by the "browser" and closed by the server while
 * the test held the event loop would otherwise meet the app's next request.
 */
export async function answerConsent(authorizeUrl: string, decision: 'approve' | 'deny'): Promise<string> {
  const page = await browserRequest(new URL(authorizeUrl), 'GET')
  const requestId = /name="requestId" value="([^"]+)"/.exec(page.text)?.[1]
  if (page.status !== 200 || requestId === undefined) {
    throw new Error(`answerConsent: expected the consent page, got HTTP ${page.status}`)
  }
  const form = new URL(authorizeUrl)
  const answer = await browserRequest(
    new URL(`${form.origin}${form.pathname}`),
    'POST',
    new URLSearchParams({ requestId, decision }).toString(),
  )
  if (answer.location === null)
    throw new Error(`answerConsent: expected a redirect, got HTTP ${answer.status}`)
  return answer.location
}
