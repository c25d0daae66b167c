// The local-development exception (plain-http webhooks to this machine, running without
// PUBLIC_BASE_URL, the sandbox's demo control; src/core/deployment.ts) exists only where the
// service runs locally (issue 12, L2 and "Also"; issue 27 item 7, issue 28): read the way wrangler
// reads wrangler.toml for each environment, and the way npm start and this suite start it.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { unstable_readConfig } from 'wrangler'

const ROOT = resolve(import.meta.dirname, '../../..')
const configOf = (env?: string) => unstable_readConfig({ config: resolve(ROOT, 'wrangler.toml'), env })
const varsOf = (env?: string) => configOf(env).vars

describe('the deployment configuration', () => {
  it('production runs under production rules: no local-development exception, no sandbox binding', () => {
    expect(varsOf('production').LOCAL_DEVELOPMENT).toBe('off')
    expect(configOf('production').services ?? []).toEqual([])
  })

  it('a deploy without --env carries no local-only flag either', () => {
    expect(varsOf(undefined).LOCAL_DEVELOPMENT).toBeUndefined()
    expect(varsOf(undefined).SHOW_OUTBOX).toBeUndefined()
  })

  it('npm start and the end-to-end harness pass the local-only flags to wrangler dev themselves', () => {
    for (const file of ['scripts/start.mjs', 'test/e2e/global-setup.ts']) {
      const source = readFileSync(resolve(ROOT, file), 'utf8')
      expect(source).toContain("'LOCAL_DEVELOPMENT:on'")
      expect(source).toContain("'SHOW_OUTBOX:on'")
    }
  })

  it('the benchmark runs with the local-development exception', () => {
    expect(varsOf('bench').LOCAL_DEVELOPMENT).toBe('on')
  })
})
