import { defineConfig } from 'vitest/config'
import { workerdPool } from './test/setup/workerd-pool'

// Every suite runs inside workerd with the real wrangler config: real D1 (migrated in
// test/setup/apply-migrations.ts) and real Durable Objects, storage isolated per test file.
export default defineConfig(async () => ({
  plugins: [await workerdPool()],
  test: {
    name: 'workers',
    include: ['test/**/*.test.ts'],
    exclude: [
      'test/pure/**',
      'test/probe/**',
      'test/e2e/**',
      'test/simulation/**',
      'test/watch/**',
      'test/connection/**',
      'node_modules/**',
    ],
    setupFiles: ['./test/setup/apply-migrations.ts'],
    // Timeouts guard against hangs, not speed (speed lives in npm run bench): a 2-core machine
    // running the projects side by side can take several seconds for one D1 + DO round trip.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
}))
