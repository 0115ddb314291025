/**
 * Hostile text, as a compromised or careless payroll service could send it in names and job titles: markup and
 * script that must stay inert text, right-to-left overrides that must not reorder what follows them, control
 * characters, formula-like text and a 100 KB name. Switched on per sandbox (`hostileNames`); every tenth
 * employee, starting with the fourth, gets one, and the rest stay ordinary so the app has a normal list around
 * them.
 */

/** A name a test can look for: what it holds and the harm it would do if rendered as anything but text. */
export interface HostileText {
  readonly first: string
  readonly last: string
  readonly jobTitle: string
}

/** Running any of these scripts sets `window.__pwned`; the browser test asserts it never does. */
export const HOSTILE_TEXTS: readonly HostileText[] = [
  {
    first: '<img src=x onerror="window.__pwned=1">',
    last: '<script>window.__pwned=1</script>',
    jobTitle: '<b>Bold</b> <a href="javascript:window.__pwned=1">click</a>',
  },
  {
    // "Lee" followed by an override that would show "exe.gnp" as "png.exe" and drag the rest of the line with it.
    first: 'Eve\u202Eexe.gnp',
    last: 'Lee\u202Eeliforp',
    jobTitle: '\u202BRTL embedding\u202C then \u2067isolate',
  },
  {
    first: 'Ctrl\u0000Nul\u0007Bell',
    last: 'Esc\u001B[31mRed\u001B[0m\r\nNext\u0008',
    jobTitle: 'Tab\there\u000Bvertical\u000Cfeed\u007Fdel',
  },
  {
    first: 'Long',
    last: `Name${'x'.repeat(100 * 1024)}`,
    jobTitle: 'Very long name',
  },
  {
    first: '"><svg onload=window.__pwned=1>',
    last: "{{constructor.constructor('window.__pwned=1')()}}",
    jobTitle: '=HYPERLINK("http://evil.example","click")',
  },
  {
    first: '${window.__pwned=1}',
    last: '</textarea><iframe srcdoc="<script>parent.__pwned=1</script>">',
    jobTitle: "@SUM(1+1)*cmd|' /C calc'!A0",
  },
]

/** Position of the first hostile employee, and how far apart they are. */
const FIRST = 3
const EVERY = 10

/** The hostile text employee `id` carries, or undefined for an ordinary employee. */
export function hostileTextOf(id: number): HostileText | undefined {
  if (id < FIRST || (id - FIRST) % EVERY !== 0) return undefined
  return HOSTILE_TEXTS[((id - FIRST) / EVERY) % HOSTILE_TEXTS.length]
}

/** Indexes (in a sandbox of `size`) of employees with hostile text, for tests that look them up. */
export function hostileEmployeeIds(size: number): number[] {
  const ids: number[] = []
  for (let id = FIRST; id < size; id += EVERY) ids.push(id)
  return ids
}
