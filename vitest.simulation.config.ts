import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin'
import { defineConfig } from 'vitest/config'
import { buildSandbox, sandboxServiceBindings, sandboxWorkers, TEST_PLATFORM_API_KEY } from './sandbox/test-workers'

// The booking-safety simulation and the crash-safety tests, in workerd against the sandbox
// platform. Their own project so that the service talks to a sandbox world of its own (the
// sandbox keeps one world per API host name): nothing else resets it or queues faults in it.
// Files run one at a time for the same reason. `npm test` runs the reduced simulation;
// `npm run simulate` (scripts/simulate.mjs) sets SIM_REQUESTS for the full one.
export default defineConfig(async () => {
  const migrations = await readD1Migrations('./migrations')
  await buildSandbox()
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: './wrangler.toml' },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            PUBLIC_BASE_URL: 'http://localhost:8787',
            PLATFORM_BASE_URL: 'https://simulation.sandbox.test',
            PLATFORM_API_KEY: TEST_PLATFORM_API_KEY,
            // Not a secret: the AES-GCM key for platform tokens inside the test pool only.
            PLATFORM_TOKEN_KEY: 'dGVzdC1vbmx5IHBsYXRmb3JtIHRva2VuIGtleSAzMmI=',
            SIM_REQUESTS: process.env.SIM_REQUESTS ?? '',
            SIM_SEED: process.env.SEED ?? '',
          },
          serviceBindings: sandboxServiceBindings,
          workers: sandboxWorkers(),
        },
      }),
    ],
    test: {
      name: 'simulation',
      include: ['test/simulation/**/*.test.ts'],
      setupFiles: ['./test/setup/apply-migrations.ts'],
      fileParallelism: false,
      testTimeout: Number(process.env.SIM_TIMEOUT_MS ?? 120_000),
    },
  }
})
