import { defineConfig } from 'vitest/config'

// The platform probe (scripts/platform-probe, `npm run platform:probe`) in plain Node, on
// loopback only: against a local server that answers as the real platform does behind its CDN,
// and against the sandbox platform worker in its own `wrangler dev` (started by the test itself).
export default defineConfig({
  test: {
    name: 'probe',
    environment: 'node',
    include: ['test/probe/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 240_000,
  },
})
