import { POLICY_PROBLEM_PREFIX } from '../../../shared/policy-view'
import type { PolicyFileRead } from './policy-file-trust'
import { NO_POLICY, type PolicyInForce } from './policy-in-force'
import { POLICY_REGISTRY_KEY, POLICY_REGISTRY_VALUES, policySchema } from './policy-schema'

/** The variable a run from source reads its policy file from, instead of the machine's (never a packaged app). */
export const POLICY_FILE_VARIABLE = 'ROSTERDESK_POLICY_FILE'

/** What reading the registry key found: its values and its subkeys' (registry-query.ts), or no such key. */
export type RegistryQueryResult =
  { readonly kind: 'found'; readonly values: readonly RegistryValue[] } | { readonly kind: 'missing' }

/** Where and how the policy is read, given once (the core process and every CLI command build one). */
export interface PolicySourceDeps {
  readonly platform: NodeJS.Platform
  readonly env: Readonly<Record<string, string | undefined>>
  /** A packaged app never reads `ROSTERDESK_POLICY_FILE`. */
  readonly packaged: boolean
  /**
   * The machine's policy file (`machinePolicyFile`; on Windows under the known folder %ProgramData%), read only
   * when only administrators can change it (policy-file-trust.ts); rejects when the file or its permissions
   * cannot be read.
   */
  readonly readMachineFile: () => Promise<{ readonly path: string; readonly read: PolicyFileRead }>
  /** A file a run from source names, read only when only administrators or the current user can change it. */
  readonly readNamedFile: (path: string) => Promise<PolicyFileRead>
  /** The key's values on Windows (registry-query.ts); rejects when they cannot be read or time runs out. */
  readonly queryRegistry: (key: string) => Promise<RegistryQueryResult>
}

/** A source's problems, each "path: reason", never a value (a client secret may be the value). */
class PolicyReadError extends Error {
  constructor(
    readonly reasons: readonly string[],
    readonly detail: string,
  ) {
    super(reasons.join('; '))
  }
}

/**
 * The machine-wide policy file of `platform` as IT is told where it is (Windows: under %ProgramData% from the
 * environment; the reader itself asks Windows for the known folder).
 */
export function machinePolicyFile(
  platform: NodeJS.Platform,
  env: Readonly<Record<string, string | undefined>>,
): string {
  if (platform === 'win32')
    return `${env['ProgramData'] ?? env['PROGRAMDATA'] ?? 'C:\\ProgramData'}\\RosterDesk\\policy.json`
  if (platform === 'darwin') return '/Library/Application Support/RosterDesk/policy.json'
  return '/etc/rosterdesk/policy.json'
}

/**
 * Reads the machine policy (decision 042). A run from source with `ROSTERDESK_POLICY_FILE` set reads that file
 * only. Otherwise, on Windows, the registry key `HKLM\Software\Policies\RosterDesk` when it holds any value (what
 * Group Policy and Intune write) is the policy, whole, and the file is not read; else the machine file of the OS.
 * Nothing there: no policy. A source that cannot be read, is not JSON, or fails `policySchema` is a `problem`
 * (message for the clerk, starting with POLICY_PROBLEM_PREFIX and naming the source and each reason by its key's
 * path; detail for the log) and the whole policy is ignored, never half-applied. Never throws; no message holds
 * a value from the policy (a client secret may be one).
 */
export async function loadMachinePolicy(deps: PolicySourceDeps): Promise<PolicyInForce> {
  const named = deps.packaged ? undefined : deps.env[POLICY_FILE_VARIABLE]?.trim()
  if (named !== undefined && named !== '') return fromFile(named, () => deps.readNamedFile(named))
  if (deps.platform === 'win32') {
    let registry: Record<string, unknown> | undefined
    try {
      registry = await readRegistry(deps)
    } catch (error) {
      return problem(POLICY_REGISTRY_KEY, error)
    }
    if (registry !== undefined) return validated(POLICY_REGISTRY_KEY, registry)
  }
  let machine: { readonly path: string; readonly read: PolicyFileRead }
  try {
    machine = await deps.readMachineFile()
  } catch (error) {
    return unreadable(machinePolicyFile(deps.platform, deps.env), error)
  }
  return fromFile(machine.path, () => Promise.resolve(machine.read))
}

/**
 * A policy file's policy: none when it does not exist; a problem when it cannot be read, when users who are not
 * administrators can change it (ignored whole, the reason named), when it is not JSON or not a valid policy.
 */
async function fromFile(path: string, read: () => Promise<PolicyFileRead>): Promise<PolicyInForce> {
  let file: PolicyFileRead
  try {
    file = await read()
  } catch (error) {
    return unreadable(path, error)
  }
  if (file.kind === 'missing') return NO_POLICY
  if (file.kind === 'refused') return problem(path, new PolicyReadError([file.reason], file.detail))
  const text = file.text
  let raw: unknown
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch (error) {
    return problem(path, notJson('the file', text, error))
  }
  return validated(path, raw)
}

/** A file (or its permissions) that exists but cannot be read: a problem naming the error's code. */
function unreadable(path: string, error: unknown): PolicyInForce {
  const code = (error as { code?: unknown }).code
  if (code === 'ENOENT' || code === 'ENOTDIR') return NO_POLICY
  const reason =
    typeof code === 'string'
      ? `the file cannot be read (${code})`
      : 'the file or its permissions cannot be read (see the log)'
  return problem(path, new PolicyReadError([reason], error instanceof Error ? error.message : String(error)))
}

/** `raw` checked by `policySchema`: the policy in force, or every problem by its key's path. */
function validated(source: string, raw: unknown): PolicyInForce {
  const result = policySchema.safeParse(raw)
  if (result.success) return { policy: result.data, source, problem: undefined }
  const reasons = schemaReasons(result.error.issues)
  return problem(source, new PolicyReadError(reasons, `${reasons.length} problem(s) in the policy`))
}

function schemaReasons(issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }>): string[] {
  return issues.map((issue) => {
    const path = keyPath(issue.path)
    return path === '' ? issue.message : `${path}: ${issue.message}`
  })
}

/**
 * Every reason a policy file's text cannot be used, for an administrator (`cli policy --check`): not JSON (where
 * it stops), then each schema problem by its key's path; [] when the file is a valid policy.
 */
export function policyTextProblems(text: string): string[] {
  let raw: unknown
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch (error) {
    return [...notJson('the file', text, error).reasons]
  }
  const result = policySchema.safeParse(raw)
  return result.success ? [] : schemaReasons(result.error.issues)
}

/** "profiles[0].baseUrl" from zod's path. */
function keyPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`,
    )
    .join('')
}

/**
 * A JSON text that does not parse, said by where (V8's "position N", as a line and column) and never with the
 * text itself: V8's message quotes the text, which may hold a client secret.
 */
function notJson(what: string, text: string, error: unknown): PolicyReadError {
  const message = error instanceof Error ? error.message : ''
  const position = /position (\d+)/.exec(message)?.[1]
  let where = ''
  if (position !== undefined) {
    const before = text.slice(0, Number(position)).split('\n')
    where = ` (line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1})`
  } else if (text.trim() === '') {
    where = ' (it is empty)'
  }
  return new PolicyReadError([`${what} is not JSON${where}`], `JSON.parse failed${where}`)
}

function problem(source: string, error: unknown): PolicyInForce {
  const reasons = error instanceof PolicyReadError ? error.reasons : ['it could not be read (see the log)']
  const detail =
    error instanceof PolicyReadError ? error.detail : error instanceof Error ? error.message : String(error)
  return {
    policy: undefined,
    source: undefined,
    problem: {
      message: `${POLICY_PROBLEM_PREFIX} ${source}: ${reasons.map((reason) => reason.replace(/\.$/, '')).join('; ')}. None of it is applied until it is fixed; tell your IT department.`,
      detail: `policy ${source}: ${detail}`,
    },
  }
}

/** The registry key's values as a policy object; undefined when the key does not exist or holds none. */
async function readRegistry(deps: PolicySourceDeps): Promise<Record<string, unknown> | undefined> {
  const answer = await deps.queryRegistry(POLICY_REGISTRY_KEY)
  if (answer.kind === 'missing' || answer.values.length === 0) return undefined
  return registryPolicy(answer.values)
}

/** One registry value: the key (or subkey) it is under, its name, its type (`REG_SZ`, `REG_DWORD`, …) and data. */
export interface RegistryValue {
  readonly key: string
  readonly name: string
  readonly type: string
  /** Text as it is; a REG_DWORD as `0x…`. */
  readonly data: string
}

/** The policy key's full name as the registry gives it (`HKEY_LOCAL_MACHINE\Software\Policies\RosterDesk`). */
const POLICY_REGISTRY_HEADER = POLICY_REGISTRY_KEY.replace(/^HKLM\\/, 'HKEY_LOCAL_MACHINE\\')

/**
 * The registry's values read into a policy object by POLICY_REGISTRY_VALUES, every problem collected: only the
 * values directly under the policy key are read (its header compared ignoring case, as Windows names keys); one
 * under a subkey is refused by its subkey and name, so a leftover or misplaced subkey is never applied, nor
 * ignored silently; a value not in the table is refused by name like an unknown key, a value of the wrong type
 * by name and type, the Profiles JSON by where it stops parsing.
 */
function registryPolicy(values: readonly RegistryValue[]): Record<string, unknown> {
  const policy: Record<string, unknown> = {}
  const reasons: string[] = []
  const header = POLICY_REGISTRY_HEADER.toLowerCase()
  for (const value of values) {
    if (value.key.toLowerCase() !== header) {
      const subkey = value.key.toLowerCase().startsWith(`${header}\\`)
        ? value.key.slice(header.length + 1)
        : value.key
      reasons.push(
        `${subkey}\\${value.name} is under a subkey; only the values directly under ${POLICY_REGISTRY_KEY} are read`,
      )
      continue
    }
    const entry = POLICY_REGISTRY_VALUES.find((row) => row.value.toLowerCase() === value.name.toLowerCase())
    if (entry === undefined) {
      reasons.push(`${value.name} is not a RosterDesk policy value`)
      continue
    }
    if (value.type !== entry.type) {
      reasons.push(`${entry.value} must be a ${entry.type}, not a ${value.type}`)
      continue
    }
    let data: unknown = value.data
    if (entry.type === 'REG_DWORD') {
      const number = Number.parseInt(value.data, 16)
      if (!/^0x[0-9a-f]+$/i.test(value.data) || !Number.isSafeInteger(number)) {
        reasons.push(`${entry.value} is not a number`)
        continue
      }
      data = number
      if ('boolean' in entry && entry.boolean) {
        if (number !== 0 && number !== 1) {
          reasons.push(`${entry.value} must be 0 (off) or 1 (on)`)
          continue
        }
        data = number === 1
      }
    } else if ('json' in entry && entry.json) {
      try {
        data = JSON.parse(value.data)
      } catch (error) {
        reasons.push(...notJson(entry.value, value.data, error).reasons)
        continue
      }
    }
    setPath(policy, entry.path, data)
  }
  if (reasons.length > 0) throw new PolicyReadError(reasons, `${reasons.length} registry value problem(s)`)
  return policy
}

function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  const [head, ...rest] = path
  if (head === undefined) return
  if (rest.length === 0) {
    target[head] = value
    return
  }
  const inner = target[head]
  const object: Record<string, unknown> =
    typeof inner === 'object' && inner !== null ? (inner as Record<string, unknown>) : {}
  target[head] = object
  setPath(object, rest, value)
}
