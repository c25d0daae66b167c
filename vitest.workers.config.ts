import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin'
import { defineConfig } from 'vitest/config'
import { buildSandbox, sandboxServiceBindings, sandboxWorkers, TEST_PLATFORM_API_KEY } from './sandbox/test-workers'

// Every suite runs inside workerd with the real wrangler config: real D1 (migrated in
// test/setup/apply-migrations.ts) and real Durable Objects, storage isolated per test file.
export default defineConfig(async () => {
  const migrations = await readD1Migrations('./migrations')
  await buildSandbox() // the sandbox platform, an auxiliary worker behind the PLATFORM binding
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: './wrangler.toml' },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            PUBLIC_BASE_URL: 'http://localhost:8787',
            PLATFORM_API_KEY: TEST_PLATFORM_API_KEY,
            // Not a secret: the AES-GCM key for platform tokens inside the test pool only.
            PLATFORM_TOKEN_KEY: 'dGVzdC1vbmx5IHBsYXRmb3JtIHRva2VuIGtleSAzMmI=',
          },
          serviceBindings: sandboxServiceBindings,
          workers: sandboxWorkers(),
        },
      }),
    ],
    test: {
      name: 'workers',
      include: ['test/**/*.test.ts'],
      exclude: ['test/e2e/**', 'test/simulation/**', 'node_modules/**'],
      setupFiles: ['./test/setup/apply-migrations.ts'],
    },
  }
})
