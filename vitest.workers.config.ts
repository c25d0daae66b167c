import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin'
import { defineConfig } from 'vitest/config'

// Every suite runs inside workerd with the real wrangler config: real D1 (migrated in
// test/setup/apply-migrations.ts) and real Durable Objects, storage isolated per test file.
export default defineConfig(async () => {
  const migrations = await readD1Migrations('./migrations')
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: './wrangler.toml' },
        miniflare: {
          bindings: { TEST_MIGRATIONS: migrations, PUBLIC_BASE_URL: 'http://localhost:8787' },
        },
      }),
    ],
    test: {
      name: 'workers',
      include: ['test/**/*.test.ts'],
      exclude: ['test/e2e/**', 'node_modules/**'],
      setupFiles: ['./test/setup/apply-migrations.ts'],
    },
  }
})
