/** HTML text for the pages and tables RosterDesk writes (the printed page, a copy's clipboard table). */

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** Text as HTML content or a quoted attribute value; control characters (which HTML cannot carry) are dropped. */
export function escapeHtml(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- control characters are what is being removed
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '')
      .replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char)
  )
}
