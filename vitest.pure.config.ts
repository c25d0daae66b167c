import { defineConfig } from 'vitest/config'

// Pure tests in plain Node, no workerd and no bindings: decide(), the transition table, matching,
// cadence, schedules, limits and the fee rules, the platform client against recorded answers, the
// error formats. The clock is an argument, so nothing sleeps. Every test file under test/pure/
// runs here (subfolders name the area, e.g. test/pure/platform/): a test that needs no binding
// belongs here, where it runs in a fraction of a second instead of in workerd.
export default defineConfig({
  test: {
    name: 'pure',
    environment: 'node',
    include: ['test/pure/**/*.test.ts'],
    // A guard against hangs, as in the other projects, not a speed target: beside the other lanes
    // of npm test on a loaded 2-core machine, the longest pure test (poll-turns) passed 5 s.
    testTimeout: 30_000,
  },
})
