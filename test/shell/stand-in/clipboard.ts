/**
 * Electron's main-process clipboard as RosterDesk's shell uses it (electron 45.4.1, whose clipboard module is aligned
 * with the W3C Clipboard API: electron/electron f6b2547938, "feat: clipboard module aligned with the W3C Clipboard
 * API (#51707)"), held to its source:
 *
 * - `new ClipboardItem(items)` (lib/browser/api/clipboard-item.ts, `ClipboardItem` constructor): `items` must be a
 *   plain object of MIME type to payload with at least one type, else a TypeError ("Failed to construct
 *   'ClipboardItem': …"); a payload is a string, a Blob or a Promise of either. `types` is the object's keys.
 * - `clipboard.write(items)` (lib/browser/api/clipboard.ts, `wrapClipboard().write`): a TypeError unless `items`
 *   is an array of ClipboardItem; every payload is resolved first (`kToNative`), then committed in one native
 *   write. shell/browser/api/electron_api_clipboard.cc, `Clipboard::Write`: one `ui::ScopedClipboardWriter` for
 *   all items, whose destructor commits every entry at once, replacing what the clipboard held;
 *   shell/browser/api/electron_api_clipboard_item.cc, `ClipboardItem::WriteTo`: `text/plain` goes to `WriteText`,
 *   `text/html` to `WriteHTML(text, "")` (no source URL), as given, unsanitized (main's write is not the page's).
 * - `clipboard.readText()` resolves with the plain text held ('' when none); `clipboard.clear()` empties it.
 *
 * Images, bookmarks, RTF and raw OS formats are not modelled: RosterDesk writes none.
 */

type Payload = string | Blob | Promise<string | Blob>

export class StandInClipboardItem {
  readonly #data: Record<string, Payload>

  constructor(items: Record<string, Payload>) {
    if (typeof items !== 'object' || items === null || Array.isArray(items)) {
      throw new TypeError(
        "Failed to construct 'ClipboardItem': 1 argument required — an object mapping MIME types to payloads.",
      )
    }
    if (Object.keys(items).length === 0) {
      throw new TypeError("Failed to construct 'ClipboardItem': at least one MIME type is required.")
    }
    this.#data = { ...items }
  }

  get types(): string[] {
    return Object.keys(this.#data)
  }

  /** The payloads as the native write receives them: each awaited, a Blob read as UTF-8. */
  async resolved(): Promise<Record<string, string>> {
    const out: Record<string, string> = {}
    for (const mime of Object.keys(this.#data)) {
      const value = await this.#data[mime]
      out[mime] = value instanceof Blob ? await value.text() : String(value)
    }
    return out
  }
}

/** The system clipboard's contents, by MIME type, after each write (newest last). */
export interface StandInClipboardRecord {
  readonly clipboardWrites: Array<Record<string, string>>
}

export function createStandInClipboard(record: StandInClipboardRecord) {
  let held: Record<string, string> = {}
  return {
    write: async (items: unknown): Promise<void> => {
      if (!Array.isArray(items) || !items.every((item) => item instanceof StandInClipboardItem)) {
        throw new TypeError('clipboard.write expects an array of ClipboardItem')
      }
      const entries: Record<string, string> = {}
      for (const item of items) Object.assign(entries, await item.resolved())
      held = entries
      record.clipboardWrites.push({ ...entries })
    },
    writeText: async (text: string): Promise<void> => {
      held = { 'text/plain': String(text) }
      record.clipboardWrites.push({ ...held })
    },
    readText: async (): Promise<string> => held['text/plain'] ?? '',
    clear: (): void => {
      held = {}
    },
  }
}
