// The local-development exception (plain-http webhooks to this machine, running without
// PUBLIC_BASE_URL, the sandbox's demo control; src/core/deployment.ts) exists only where the
// service runs locally: read the way wrangler
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

  it('binds every Durable Object class the worker exports, with a migration, in every environment', () => {
    const exported = [...readFileSync(resolve(ROOT, 'src/index.ts'), 'utf8').matchAll(/^export \{ (\w+Object) \}/gm)].map((m) => m[1])
    expect(exported).toContain('GrantObject')
    for (const env of [undefined, 'production', 'bench']) {
      const config = configOf(env)
      const bound = (config.durable_objects?.bindings ?? []).map((binding: { class_name: string }) => binding.class_name)
      const migrated = (config.migrations ?? []).flatMap((migration: { new_sqlite_classes?: string[]; new_classes?: string[] }) => [
        ...(migration.new_sqlite_classes ?? []),
        ...(migration.new_classes ?? []),
      ])
      expect(new Set(bound), String(env)).toEqual(new Set(exported))
      expect(new Set(migrated), String(env)).toEqual(new Set(exported))
    }
  })

  it('the benchmark runs with the local-development exception', () => {
    expect(varsOf('bench').LOCAL_DEVELOPMENT).toBe('on')
  })
})
