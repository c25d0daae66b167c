import { defineConfig } from 'vitest/config'

// The two end-to-end projects (vitest.e2e.config.ts, vitest.e2e-tools.config.ts) are configured
// alike: each starts a sandbox platform and the service of its own (global-setup.ts), so the two
// can run side by side (scripts/test.mjs) without meeting in one platform world, and each runs one
// file at a time against them: files share those servers and the machine has 2 cores.
export function e2eProject(name: string, include: string[], exclude: string[] = []) {
  return defineConfig({
    test: {
      name,
      environment: 'node',
      include,
      exclude: ['**/node_modules/**', ...exclude],
      globalSetup: ['./test/e2e/global-setup.ts'],
      pool: 'forks',
      maxWorkers: 1,
      fileParallelism: false,
      testTimeout: 120_000,
      hookTimeout: 240_000,
    },
  })
}
