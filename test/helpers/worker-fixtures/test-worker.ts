import { threadId } from 'node:worker_threads'
import { cancelledError, RosterDeskError } from '../../../src/main/core/errors'
import { serveJobs } from '../../../src/main/core-host/worker/serve-jobs'
import { refusal, type TestJobs } from './test-jobs'

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 5))

serveJobs<TestJobs>({
  echo: (input) => ({ text: input.text, threadId }),
  squares: (input, context) => {
    const values = Uint32Array.from({ length: input.count }, (_, i) => i * i)
    context.transfer(values.buffer)
    return values
  },
  count: async (input, context) => {
    for (let i = 1; i <= input.to; i++) {
      context.progress(i)
      await tick()
    }
    return input.to
  },
  'until-cancelled': async (_, context) => {
    context.progress('started')
    while (!context.signal.aborted) await tick()
    throw cancelledError('The test job')
  },
  'ignores-cancel': (input) => {
    const end = Date.now() + input.ms
    while (Date.now() < end) {
      // Busy on purpose: a job that never looks at its signal.
    }
    return 'finished'
  },
  refuse: () => {
    throw refusal
  },
  'throw-plain': () => {
    throw new TypeError('a bug in the worker')
  },
  crash: () => process.exit(3),
  warn: (input, context) => {
    context.logger.warn(
      'The test job saw something odd',
      new RosterDeskError('internal', 'Odd.', { detail: `sent Authorization: Bearer ${input.token}` }),
    )
    return null
  },
  ask: async (input, context) => {
    let sum = 0
    for (const value of input.numbers) sum += await context.call('double', value)
    return sum
  },
})
