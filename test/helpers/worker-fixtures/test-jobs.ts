import { RosterDeskError } from '../../../src/main/core/errors'
import type { CallSpec, JobSpec } from '../../../src/main/core-host/worker/worker-protocol'

/** The jobs of the worker host's test worker: each shows one behaviour of the host. */
export type TestJobs = {
  readonly echo: JobSpec<{ readonly text: string }, { readonly text: string; readonly threadId: number }>
  readonly squares: JobSpec<{ readonly count: number }, Uint32Array>
  readonly count: JobSpec<{ readonly to: number }, number, number>
  readonly 'until-cancelled': JobSpec<null, never, string>
  readonly 'ignores-cancel': JobSpec<{ readonly ms: number }, string>
  readonly refuse: JobSpec<null, never>
  readonly 'throw-plain': JobSpec<null, never>
  readonly crash: JobSpec<null, never>
  /** Warns through its logger, with an error whose detail carries a bearer token the log must never show. */
  readonly warn: JobSpec<{ readonly token: string }, null>
  /** Asks the host to double each number, one call at a time, and sums the answers. */
  readonly ask: JobSpec<{ readonly numbers: readonly number[] }, number, never, TestCalls>
}

export type TestCalls = { readonly double: CallSpec<number, number> }

export const refusal = new RosterDeskError('busy', 'The test worker refuses.', { detail: 'on purpose' })
