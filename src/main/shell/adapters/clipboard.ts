import { clipboard, ClipboardItem } from 'electron'
import type { ClipboardContent, ClipboardWriter } from '../../core/export/copy-rows'

/**
 * The shell's ClipboardWriter: the table's Copy as one item of two types, `text/plain` and `text/html`, committed
 * to the system clipboard at once (Electron 45's `clipboard.write`, in main: lib/browser/api/clipboard.ts and
 * shell/browser/api/electron_api_clipboard.cc, `Clipboard::Write`, one ScopedClipboardWriter for every entry).
 * Written here, not by the page: a spreadsheet pastes the HTML, whose inline styles keep an employee number as
 * text, and the page's own write would run that HTML through its CSP (a violation reported per cell).
 */
export const writeSystemClipboard: ClipboardWriter = async ({ text, html }: ClipboardContent) => {
  await clipboard.write([new ClipboardItem({ 'text/plain': text, 'text/html': html })])
}
