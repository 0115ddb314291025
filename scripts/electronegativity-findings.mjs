/**
 * The rules of the Electronegativity gate (scripts/electronegativity-gate.mjs), kept free of I/O so they are unit
 * tested (test/unit/repo/electronegativity-findings.test.ts).
 *
 * The build fails on every HIGH finding and every MEDIUM finding at FIRM or CERTAIN confidence, unless
 * electronegativity.config.json justifies it: an array of { check, file, reason } entries. An entry that no longer
 * matches such a finding fails the build too, so the file never outlives the code it excuses.
 */

export const SEVERITIES = ['INFORMATIONAL', 'LOW', 'MEDIUM', 'HIGH']
export const CONFIDENCES = ['TENTATIVE', 'FIRM', 'CERTAIN']

/** A justification shorter than this cannot say what protects the app instead. */
export const MIN_REASON_LENGTH = 60

const ENTRY_KEYS = ['check', 'file', 'reason']
const CHECK_ID = /^[A-Z][A-Z0-9_]*_CHECK$/
/** Marks of a reason still to be written. */
const PLACEHOLDER = /\b(todo|tbd|fixme|xxx)\b|lorem ipsum/i
/** Electronegativity's own suppression comment (its util/exceptions.js), which would hide findings from the gate. */
const ENG_DISABLE = /(?:\/\*|\/\/|<!--)[ \t]*eng-disable\b/i

/** Whether a finding fails the build unless justified. */
export function isGated(finding) {
  return (
    finding.severity === 'HIGH' ||
    (finding.severity === 'MEDIUM' && (finding.confidence === 'FIRM' || finding.confidence === 'CERTAIN'))
  )
}

/**
 * Turns one issue as Electronegativity's run() returns it into a plain finding with a repository-relative, '/'
 * separated path (`relativePath` maps the tool's absolute path). Throws on a shape the gate does not know, rather
 * than guessing at severity or confidence.
 */
export function toFinding(issue, relativePath) {
  const severity = issue?.severity?.name
  const confidence = issue?.confidence?.name
  if (typeof issue?.id !== 'string' || !SEVERITIES.includes(severity) || !CONFIDENCES.includes(confidence)) {
    throw new Error(`Electronegativity returned an issue the gate cannot read: ${safeJson(issue)}`)
  }
  const file = typeof issue.file === 'string' && issue.file !== 'N/A' ? relativePath(issue.file) : 'N/A'
  return {
    check: issue.id,
    severity,
    confidence,
    file: file.split('\\').join('/'),
    line: Number(issue.location?.line ?? 0),
    column: Number(issue.location?.column ?? 0),
    description: String(issue.description ?? ''),
    url: String(issue.shortenedURL ?? ''),
  }
}

/**
 * Validates the config's parsed JSON. Returns the entries and, separately, every problem found (all of them, so
 * one run lists everything to fix).
 */
export function parseJustifications(json) {
  if (!Array.isArray(json))
    return { entries: [], problems: ['the config must be a JSON array of { check, file, reason }'] }
  const entries = []
  const problems = []
  const seen = new Set()
  json.forEach((entry, index) => {
    const where = `entry ${index + 1}`
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push(`${where}: must be an object { check, file, reason }`)
      return
    }
    const unknown = Object.keys(entry).filter((key) => !ENTRY_KEYS.includes(key))
    if (unknown.length > 0) problems.push(`${where}: unknown key(s) ${unknown.join(', ')}`)
    const { check, file, reason } = entry
    if (typeof check !== 'string' || !CHECK_ID.test(check)) {
      problems.push(`${where}: "check" must be an Electronegativity check id such as SANDBOX_JS_CHECK`)
    }
    if (typeof file !== 'string' || !isRepositoryPath(file)) {
      problems.push(
        `${where}: "file" must be a path inside the repository, '/'-separated, such as src/main/shell/window.ts`,
      )
    }
    if (typeof reason !== 'string' || !isRealReason(reason)) {
      problems.push(
        `${where}: "reason" must tell a security reviewer what protects the app instead (at least ${MIN_REASON_LENGTH} characters, not a placeholder)`,
      )
    }
    const key = `${check}\u0000${file}`
    if (seen.has(key)) problems.push(`${where}: ${check} in ${file} is justified twice`)
    seen.add(key)
    if (typeof check === 'string' && typeof file === 'string' && typeof reason === 'string') {
      entries.push({ check, file, reason })
    }
  })
  return { entries, problems }
}

/**
 * Sorts the findings: `failures` are gated and unjustified, `justified` are gated and excused by an entry, `other`
 * are below the gate. `stale` are entries that excuse no gated finding (fixed code, a renamed file, a typo).
 */
export function evaluate(findings, entries) {
  const matches = (entry, finding) => entry.check === finding.check && entry.file === finding.file
  const failures = []
  const justified = []
  const other = []
  for (const finding of findings) {
    if (!isGated(finding)) other.push(finding)
    else {
      const entry = entries.find((candidate) => matches(candidate, finding))
      if (entry) justified.push({ finding, entry })
      else failures.push(finding)
    }
  }
  const stale = entries.filter((entry) => !justified.some((j) => j.entry === entry))
  return { failures, justified, other, stale }
}

/** The lines of source that carry Electronegativity's eng-disable comment, which the gate does not honour. */
export function findSuppressions(file, text) {
  const found = []
  text.split('\n').forEach((line, index) => {
    if (ENG_DISABLE.test(line)) found.push(`${file}:${index + 1}: ${line.trim()}`)
  })
  return found
}

export function describeFinding(finding) {
  const at = finding.file === 'N/A' ? 'whole app' : `${finding.file}:${finding.line}:${finding.column}`
  return `${finding.severity}/${finding.confidence} ${finding.check} at ${at}: ${finding.description} (${finding.url})`
}

/** The report the gate prints; `ok` is false when the build must fail. */
export function report({ failures, justified, other, stale }, problems = []) {
  const lines = []
  for (const problem of problems) lines.push(`ERROR ${problem}`)
  for (const finding of failures) lines.push(`FAIL  ${describeFinding(finding)}`)
  for (const entry of stale) {
    lines.push(
      `STALE electronegativity.config.json excuses ${entry.check} in ${entry.file}, which no longer has it; remove the entry`,
    )
  }
  for (const { finding, entry } of justified)
    lines.push(`ok    ${describeFinding(finding)}\n        justified: ${entry.reason}`)
  for (const finding of other) lines.push(`info  ${describeFinding(finding)}`)
  const ok = problems.length === 0 && failures.length === 0 && stale.length === 0
  return { ok, lines }
}

function isRepositoryPath(file) {
  return (
    file.length > 0 &&
    !file.includes('\\') &&
    !file.startsWith('/') &&
    !/^[A-Za-z]:/.test(file) &&
    file.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..')
  )
}

function isRealReason(reason) {
  const text = reason.trim()
  return text.length >= MIN_REASON_LENGTH && !PLACEHOLDER.test(text)
}

function safeJson(value) {
  try {
    return JSON.stringify(value)?.slice(0, 300) ?? String(value)
  } catch {
    return String(value)
  }
}
