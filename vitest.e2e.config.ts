import { defineConfig } from 'vitest/config'

// End-to-end suites in Node: the global setup starts the sandbox platform and the service as two
// `wrangler dev` processes on free ports with their own local state, and the tests drive them
// over HTTP (the service's pages and API, the sandbox's control API) and with a headless browser.
// One file at a time: they share those servers and the machine has 2 cores.
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
