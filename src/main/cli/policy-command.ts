import { readFile } from 'node:fs/promises'
import { environmentLabel } from '../../shared/settings-rules'
import type { PolicyInForce } from '../core/policy/policy-in-force'
import { NETWORK_FIELDS, PolicyRules } from '../core/policy/policy-rules'
import { policyWithoutSecrets } from '../core/policy/policy-secrets'
import { POLICY_REGISTRY_KEY, policySchema } from '../core/policy/policy-schema'
import { machinePolicyFile, POLICY_FILE_VARIABLE, policyTextProblems } from '../core/policy/policy-sources'
import {
  parseCommandArgs,
  reportUsage,
  stringOption,
  writeLine,
  type CacheCommandIo,
} from './cache-command-args'

export const POLICY_USAGE = 'Usage: policy [--json] | policy --check FILE [--json]'

/**
 * `policy`: the machine policy in force (read at the CLI's start like the app's, `io.policy`), where it came from
 * and what it locks, never the client secret ("client secret: set"); exit 0, or 1 when a policy is there but could
 * not be read (its reasons said). `policy --check FILE`: a file validated for an administrator before it is
 * deployed, every reason printed, exit 1 when it is not valid (not JSON, a wrong type, an unknown key), 0 with a
 * summary when it is. Exit 2: bad usage.
 */
export async function runPolicyCommand(args: readonly string[], io: CacheCommandIo): Promise<number> {
  let check: string | undefined
  let json: boolean
  try {
    const values = parseCommandArgs(args, { check: { type: 'string' }, json: { type: 'boolean' } })
    check = stringOption(values, 'check')
    json = values['json'] === true
  } catch (error) {
    return reportUsage(error, io, POLICY_USAGE)
  }
  if (check !== undefined) return checkFile(check, json, io)
  const inForce = io.policy ?? { policy: undefined, source: undefined, problem: undefined }
  if (json) {
    writeLine(
      io.stdout,
      JSON.stringify({
        source: inForce.source ?? null,
        problem: inForce.problem?.message ?? null,
        policy: inForce.policy === undefined ? null : policyWithoutSecrets(inForce.policy),
        locked: lockedByProfile(inForce),
        lookedIn: lookedIn(io),
      }),
    )
  } else if (inForce.problem !== undefined) {
    writeLine(io.stderr, inForce.problem.message)
  } else if (inForce.policy === undefined) {
    writeLine(
      io.stdout,
      `No machine policy: nothing is set or locked by your organisation (looked in ${lookedIn(io).join(' and ')}).`,
    )
  } else {
    writeLines(io.stdout, [
      `Machine policy in force, from ${inForce.source ?? ''}:`,
      ...describePolicy(inForce),
    ])
  }
  return inForce.problem === undefined ? 0 : 1
}

async function checkFile(path: string, json: boolean, io: CacheCommandIo): Promise<number> {
  let problems: string[]
  let text = ''
  try {
    text = await readFile(path, 'utf8')
    problems = policyTextProblems(text)
  } catch (error) {
    const code = (error as { code?: unknown }).code
    problems = [`the file cannot be read (${typeof code === 'string' ? code : 'unreadable'})`]
  }
  if (json) {
    writeLine(io.stdout, JSON.stringify({ file: path, valid: problems.length === 0, problems }))
    return problems.length === 0 ? 0 : 1
  }
  if (problems.length > 0) {
    writeLines(io.stderr, [
      `${path} is not a valid RosterDesk policy; RosterDesk would ignore all of it:`,
      ...problems.map((p) => `  - ${p}`),
    ])
    return 1
  }
  const policy = policySchema.parse(JSON.parse(text.replace(/^\uFEFF/, '')))
  const summary = describePolicy({ policy, source: path, problem: undefined })
  writeLines(io.stdout, [`${path} is a valid RosterDesk policy:`, ...summary])
  return 0
}

/** Where the policy was looked for, as the sources read it (the CLI runs from source: the variable counts). */
function lookedIn(io: CacheCommandIo): string[] {
  const named = io.env[POLICY_FILE_VARIABLE]?.trim()
  if (named !== undefined && named !== '') return [`${named} (${POLICY_FILE_VARIABLE})`]
  const file = machinePolicyFile(io.platform, io.env)
  return io.platform === 'win32' ? [POLICY_REGISTRY_KEY, file] : [file]
}

/** Each policy profile's locked settings fields, by its name (the network's are every profile's). */
function lockedByProfile(inForce: PolicyInForce): Record<string, string[]> {
  const rules = new PolicyRules(inForce)
  return Object.fromEntries(
    (inForce.policy?.profiles ?? []).map((profile) => [profile.name, rules.lockedFields(profile.name)]),
  )
}

/** The policy in lines for a person: profiles (what each sets and locks), then the machine-wide rules. */
function describePolicy(inForce: PolicyInForce): string[] {
  const policy = inForce.policy ?? {}
  const rules = new PolicyRules(inForce)
  const lines: string[] = []
  for (const profile of policy.profiles ?? []) {
    const environment = profile.environment === undefined ? '' : ` (${environmentLabel(profile.environment)})`
    lines.push(
      `  Profile "${profile.name}"${environment}: created when no profile has that name; cannot be renamed or deleted`,
    )
    const set = (['baseUrl', 'clientId', 'redirectUri', 'tenantId', 'scopes', 'syncScope'] as const).flatMap(
      (field) => (profile[field] === undefined ? [] : [`${field} ${profile[field]}`]),
    )
    if (set.length > 0) lines.push(`    sets: ${set.join(', ')}`)
    const locked = profile.locked ?? []
    lines.push(
      `    locks: ${
        locked.length === 0
          ? 'nothing (starting values only)'
          : rules
              .lockedFields(profile.name)
              .filter((f) => !isNetworkField(f))
              .join(', ')
      }`,
    )
    if (profile.clientSecret !== undefined) lines.push('    client secret: set')
  }
  const network = Object.entries(rules.network)
  if (network.length > 0)
    lines.push(
      `  Network, every profile (locked): ${network.map(([key, value]) => `${key} ${String(value)}`).join(', ')}`,
    )
  for (const [label, section] of [
    ['Updates', policy.updates],
    ['Exports', policy.exports],
    ['Personal data', policy.personalData],
  ] as const) {
    const entries = Object.entries(section ?? {})
    if (entries.length > 0)
      lines.push(`  ${label}: ${entries.map(([key, value]) => `${key} ${String(value)}`).join(', ')}`)
  }
  return lines.length === 0 ? ['  (empty: nothing is set)'] : lines
}

/** Each line as `writeLine` writes one (terminal-safe). */
function writeLines(stream: NodeJS.WritableStream, lines: readonly string[]): void {
  for (const line of lines) writeLine(stream, line)
}

function isNetworkField(field: string): boolean {
  return (NETWORK_FIELDS as readonly string[]).includes(field)
}
