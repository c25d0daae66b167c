// Used by test/setup/workerd-pool.ts (runs in Node): builds the sandbox worker to one ES module and
// describes it as auxiliary workers, so tests reach it through the service's PLATFORM binding.
import { build } from 'esbuild'

export const SANDBOX_SCRIPT = '.build/sandbox.mjs'
/** Not a secret: the API key both workers agree on inside the test pool only. */
export const TEST_PLATFORM_API_KEY = 'test-platform-api-key-not-secret'

/** What a test run adds to the bundle: modules evaluated before the sandbox's own, and the constants they read. */
export interface SandboxBuildExtras {
  inject: string[]
  define: Record<string, string>
}

export async function buildSandbox(extras: SandboxBuildExtras = { inject: [], define: {} }): Promise<void> {
  await build({
    entryPoints: ['sandbox/src/index.ts'],
    outfile: SANDBOX_SCRIPT,
    inject: extras.inject,
    define: extras.define,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    external: ['cloudflare:*', 'node:*'],
    logLevel: 'warning',
  })
}

function sandboxWorker(name: string, control: 'on' | 'off') {
  return {
    name,
    modules: true,
    scriptPath: SANDBOX_SCRIPT,
    compatibilityDate: '2026-08-01',
    compatibilityFlags: ['nodejs_compat'],
    durableObjects: { WORLDS: { className: 'SandboxPlatform', useSQLite: true } },
    bindings: { PLATFORM_API_KEY: TEST_PLATFORM_API_KEY, SANDBOX_CONTROL: control, SANDBOX_DEMO: 'off' },
  }
}

/**
 * `tablewatch-sandbox` is what wrangler.toml's PLATFORM binding names. The locked twin (control
 * off) lets a test prove the control API is refused unless enabled.
 */
export const sandboxWorkers = () => [sandboxWorker('tablewatch-sandbox', 'on'), sandboxWorker('tablewatch-sandbox-locked', 'off')]
/** Extra bindings of the service worker under test. */
export const sandboxServiceBindings = { SANDBOX_LOCKED: 'tablewatch-sandbox-locked' }
