import { validateHeaderValue } from 'node:http'
import { createServer, type AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { isHeaderValueCarried } from '../../../src/shared/header-value'

/** Whether Node's http and Fetch's Headers both take `value` and send it exactly as written. */
function carriedUnchanged(value: string): boolean {
  try {
    validateHeaderValue('x-test', value)
    return new Headers({ 'x-test': value }).get('x-test') === value
  } catch {
    return false
  }
}

describe('isHeaderValueCarried', () => {
  const carried = ['abc', 'eyJhbGciOi.eyJzdWIi.sig-_~+/=', 'a b', 'a\tb', '!', '~']
  const refused = [
    '',
    'a\r\nX-Injected: 1',
    'a\nb',
    'a\rb',
    'a\u0000b',
    'a\u0001b',
    'a\u007fb',
    'aéb',
    'a\u00a0b',
    'a\u2028b',
    'a😀b',
    ' ab',
    'ab ',
    '\tab',
    'ab\t',
  ]

  it('takes visible ASCII with spaces or tabs between', () => {
    for (const value of carried) expect(isHeaderValueCarried(value), JSON.stringify(value)).toBe(true)
  })

  it('refuses control characters, DEL, anything past ASCII, and a space or tab at either end', () => {
    for (const value of refused) expect(isHeaderValueCarried(value), JSON.stringify(value)).toBe(false)
  })

  it('takes only what Node and Fetch carry unchanged; what it refuses one of them refuses or changes', () => {
    for (const value of carried) expect(carriedUnchanged(value), JSON.stringify(value)).toBe(true)
    // 'é' and U+00A0 are the subtle ones: Headers takes them and sends one Latin-1 byte, not the service's UTF-8.
    // '' is refused as no token at all; U+0080–U+00FF are taken by both, and changed on the wire (below).
    for (const value of refused.filter((text) => text !== '' && !/[\u0080-\u00ff]/.test(text))) {
      expect(carriedUnchanged(value), JSON.stringify(value)).toBe(false)
    }
  })

  it('is right to refuse U+0080–U+00FF: fetch sends one Latin-1 byte, not the UTF-8 the service wrote', async () => {
    let received = Buffer.alloc(0)
    const server = createServer((socket) => {
      socket.on('data', (chunk: Buffer) => {
        received = Buffer.concat([received, chunk])
        if (received.includes('\r\n\r\n')) socket.end('HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n')
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = server.address() as AddressInfo
      await fetch(`http://127.0.0.1:${port}/`, { headers: { authorization: 'Bearer aéb' } })
      expect(received.includes(Buffer.from('Bearer a\u00e9b', 'latin1'))).toBe(true)
      expect(received.includes(Buffer.from('Bearer aéb', 'utf8'))).toBe(false)
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})
