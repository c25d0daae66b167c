import { defineConfig } from 'vitest/config'

// End-to-end suites in Node: the global setup starts `wrangler dev` (service + sandbox platform)
// on a free port with its own local state, and the tests drive it over HTTP and with a headless
// browser. One file at a time: they share that one server and the machine has 2 cores.
export default defineConfig({
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['test/e2e/**/*.test.ts'],
    globalSetup: ['./test/e2e/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 240_000,
  },
})
