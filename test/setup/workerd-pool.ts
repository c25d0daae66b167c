// The workerd test pool the in-workerd projects use (vitest.workers.config.ts,
// vitest.watch.config.ts and vitest.simulation.config.ts; runs in Node): the real wrangler config,
// D1 migrations for test/setup/fresh-storage.ts, and the sandbox platform built and bound as
// auxiliary workers. Each project sets `isolate: false`: its files share one runtime.
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin'
import {
  buildSandbox,
  type SandboxBuildExtras,
  sandboxServiceBindings,
  sandboxWorkers,
  TEST_PLATFORM_API_KEY,
} from '../../sandbox/test-workers'

export async function workerdPool(bindings: Record<string, string> = {}) {
  const migrations = await readD1Migrations('./migrations')
  const ahead = clockAhead()
  await buildSandbox(ahead.sandbox) // the sandbox platform, an auxiliary worker behind the PLATFORM binding
  return cloudflareTest({
    wrangler: { configPath: './wrangler.toml' },
    miniflare: {
      bindings: {
        TEST_MIGRATIONS: migrations,
        PUBLIC_BASE_URL: 'http://localhost:8787',
        // The suites run with production's rules; wrangler.toml's local-development exceptions
        // (plain-http webhooks to this machine) are tested by the e2e suite, which runs locally.
        LOCAL_DEVELOPMENT: 'off',
        // The outbox page, as npm start shows it (wrangler.toml's top level leaves it out).
        SHOW_OUTBOX: 'on',
        PLATFORM_API_KEY: TEST_PLATFORM_API_KEY,
        // Not secrets: keys for the test pool only (the AES-GCM key for platform tokens, the
        // password pepper and the key signing signed-out CSRF tokens).
        PLATFORM_TOKEN_KEY: 'dGVzdC1vbmx5IHBsYXRmb3JtIHRva2VuIGtleSAzMmI=',
        PASSWORD_PEPPER: 'test-only password pepper',
        CSRF_SECRET: 'test-only csrf signing key',
        OPERATOR_TOKEN: 'test-only-operator-token',
        // The VAPID key of Web Push, a P-256 JWK made for the test pool only.
        VAPID_PRIVATE_KEY:
          '{"kty":"EC","crv":"P-256","x":"xveVbQJPFNFulmlNu1sEhjZkXFe9beu_GLeF5CTMdpY","y":"B4zTj1UEo43-uXq4ZeGYtOvJ_vf1SE_V5fCEMEY4gt8","d":"KfoadOlCHAgqgKLEBSNC4Of9gc05alWcVqmhNFf4-VY"}',
        VAPID_SUBJECT: 'mailto:push-tests@tablewatch.example',
        // The suites make platform calls far faster than any deployment may (the one budget,
        // default 3 a second): a generous budget here, so they test everything else as before.
        // The budget's own tests lower it on the budget object (test/watch/budget*.test.ts).
        PLATFORM_CALLS_PER_SECOND: '1000',
        ...ahead.bindings,
        ...bindings,
      },
      serviceBindings: sandboxServiceBindings,
      workers: sandboxWorkers(),
    },
  })
}

/**
 * A run "a year from now" (npm run test:year-ahead) sets TABLEWATCH_CLOCK_AHEAD_MS and moves this
 * Node process's clock with libfaketime; workerd gets the same offset in its isolates instead
 * (clock-ahead.ts), and must not inherit the preload, which it cannot start under.
 */
function clockAhead(): { bindings: Record<string, string>; sandbox: SandboxBuildExtras } {
  const ms = Number(process.env.TABLEWATCH_CLOCK_AHEAD_MS ?? 0)
  if (!Number.isFinite(ms) || ms === 0) return { bindings: {}, sandbox: { inject: [], define: {} } }
  delete process.env.LD_PRELOAD
  return {
    bindings: { TEST_CLOCK_AHEAD_MS: String(ms) },
    sandbox: { inject: ['./test/setup/clock-ahead-sandbox.ts'], define: { TABLEWATCH_CLOCK_AHEAD_MS: String(ms) } },
  }
}
