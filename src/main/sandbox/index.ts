/**
 * The sandbox payroll service: a real HTTP server implementing every endpoint of the payroll service
 * spec, with switchable answers for each point the spec leaves "not shown". Plain Node only; it shares no
 * code with the client it is used to test.
 *
 * Fixed answers to "not shown" points (the rest are switches in SandboxBehaviours):
 * - errors are JSON `{error, error_description}` (OAuth) or `{error, message}` (list); 404 / 405 for
 *   unknown paths / methods; the authorize endpoint shows an HTML page when it cannot trust the redirect;
 * - statusFilter codes 1-5 = Active, On leave, Suspended, Terminated, Pending; unknown codes match nothing;
 * - sorting is by UTF-16 code units, nulls first, ties in default order; sortOrder alone reverses it;
 * - duplicated query parameters are a 400; unknown ones are ignored; Accept is not enforced;
 * - the refresh endpoint accepts only grantType `authorization_code`, exactly as the spec shows;
 * - stats count requests whatever their outcome; issueTokens() is not counted as a code exchange.
 */
export { DEFAULT_BEHAVIOURS } from './behaviours'
export type {
  ChurnBehaviour,
  FaultBehaviours,
  HostileBehaviours,
  PagePosition,
  RawValueBehaviours,
  SandboxBehaviours,
  SandboxBehavioursPatch,
  StallMode,
  TokenStyle,
} from './behaviours'
export { EMPLOYEE_FIELDS, PAY_CYCLE_IDS, STATUS_BY_CODE } from './data'
export type { EmployeeRow, FixtureEmployee } from './data'
export { startSandbox } from './server'
export type { SandboxHandle, SandboxOptions } from './server'
