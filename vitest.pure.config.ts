import { defineConfig } from 'vitest/config'

// Pure tests in plain Node, no workerd and no bindings: decide(), the transition table, matching,
// cadence, schedules, limits and the fee rules. The clock is an argument, so nothing sleeps.
export default defineConfig({
  test: {
    name: 'pure',
    environment: 'node',
    include: ['test/pure/**/*.test.ts'],
  },
})
