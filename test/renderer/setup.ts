import { configure } from '@testing-library/react'

/**
 * Waits in renderer tests (`findBy…`, `waitFor`) are on conditions; testing-library's default of one second made
 * them fail for time alone on a loaded machine, where jsdom renders slowly. A hang still fails the test, at its
 * own time limit.
 */
configure({ asyncUtilTimeout: 10_000 })
