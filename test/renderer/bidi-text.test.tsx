import { describe, expect, it } from 'vitest'
import { isolateText } from '../../src/renderer/src/format/bidi'

describe('isolateText', () => {
  it('isolates text that could reorder what follows it: overrides, embeddings, right-to-left letters', () => {
    expect(isolateText('PC\u202Eeliforp')).toBe('\u2068PC\u202Eeliforp\u2069')
    expect(isolateText('\u202BRTL embedding\u202C')).toBe('\u2068\u202BRTL embedding\u202C\u2069')
    expect(isolateText('open \u2067isolate')).toBe('\u2068open \u2067isolate\u2069')
    expect(isolateText('שכר נובמבר')).toBe('\u2068שכר נובמבר\u2069')
    expect(isolateText('رواتب')).toBe('\u2068رواتب\u2069')
  })

  it('leaves text without them as it is, so it reads and compares the same', () => {
    for (const text of ['PC-2026-11-A', 'Müller', '', '2026/11 (monthly)', 'Zoë · 東京']) {
      expect(isolateText(text)).toBe(text)
    }
  })
})
