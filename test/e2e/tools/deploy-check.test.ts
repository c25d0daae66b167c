// `npm run deploy:check` (scripts/deploy-check.mjs), fed the committed configuration
// and broken copies of it: each problem it knows is reported as one line naming it, with exit 1;
// a complete production configuration passes. Offline: wrangler reads the config, and the bundle
// test runs `wrangler deploy --dry-run`.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../../..')
const COMMITTED = readFileSync(join(ROOT, 'wrangler.toml'), 'utf8')
const GUIDE = readFileSync(join(ROOT, 'docs/deploy.md'), 'utf8')
const dir = mkdtempSync(join(tmpdir(), 'deploy-check-test-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The committed config as a real deployment fills it in: ids from wrangler, a real origin and sender. */
function filledIn(toml = COMMITTED): string {
  const at = toml.indexOf('[env.production]')
  const end = toml.indexOf('[env.bench]')
  const production = toml
    .slice(at, end)
    .replace(/database_id = "0{8}-0{4}-0{4}-0{4}-0{12}"/, 'database_id = "3f1c2a4e-8b7d-4c1e-9a2b-5d6e7f8a9b0c"')
    .replace(/id = "0{32}"/, 'id = "9b2e4f6a8c0d1e3f5a7b9c1d3e5f7a9b"')
    .replaceAll('tablewatch.example.com', 'tablewatch.diner.dev')
  return toml.slice(0, at) + production + toml.slice(end)
}

/** Only [env.production]'s part of the config changed by `edit`. */
function inProduction(edit: (section: string) => string, toml = filledIn()): string {
  const at = toml.indexOf('[env.production]')
  const end = toml.indexOf('[env.bench]')
  return toml.slice(0, at) + edit(toml.slice(at, end)) + toml.slice(end)
}

let n = 0
function check(toml: string, args: string[] = ['--skip-bundle'], guide = GUIDE): { code: number | null; lines: string[]; out: string } {
  const config = join(dir, `wrangler-${++n}.toml`)
  const guidePath = join(dir, `deploy-${n}.md`)
  // main and the asset directory are resolved from the config's directory: point them back here.
  writeFileSync(
    config,
    toml
      .replace('main = "src/index.ts"', `main = "${join(ROOT, 'src/index.ts')}"`)
      .replace('directory = "public"', `directory = "${join(ROOT, 'public')}"`),
  )
  writeFileSync(guidePath, guide)
  const run = spawnSync(process.execPath, ['scripts/deploy-check.mjs', '--config', config, '--guide', guidePath, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
    timeout: 120_000,
  })
  return { code: run.status, lines: run.stderr.split('\n').filter((l) => l.startsWith('deploy:check: ')), out: run.stdout }
}

/** Exactly one problem, and this one. */
function expectOnly(result: ReturnType<typeof check>, problem: RegExp): void {
  expect(result.code, result.lines.join('\n')).toBe(1)
  expect(result.lines).toHaveLength(1)
  expect(result.lines[0]).toMatch(problem)
}

describe('npm run deploy:check', () => {
  it('passes a complete production configuration', () => {
    const result = check(filledIn())
    expect(result.lines).toEqual([])
    expect(result.code).toBe(0)
    expect(result.out).toContain('[env.production] is ready to deploy')
  })

  it('refuses the committed placeholders, one line each, unless told to allow them (CI)', () => {
    const strict = check(COMMITTED)
    expect(strict.code).toBe(1)
    expect(strict.lines).toEqual([
      expect.stringMatching(/D1 binding DB .* placeholder database_id 00000000-0000-0000-0000-000000000000/),
      expect.stringMatching(/KV binding OAUTH_KV .* placeholder id 0{32}/),
      expect.stringMatching(/PUBLIC_BASE_URL is still the placeholder https:\/\/tablewatch\.example\.com/),
      expect.stringMatching(/MAIL_FROM is still the placeholder/),
    ])
    expect(check(COMMITTED, ['--skip-bundle', '--allow-placeholders']).code).toBe(0)
  })

  it('names a required secret missing from [env.production.secrets]', () => {
    const toml = inProduction((s) => s.replace('"CSRF_SECRET", ', ''))
    expectOnly(check(toml), /secret CSRF_SECRET is not listed in \[env\.production\.secrets\] required/)
  })

  it('names a secret the deploy guide does not name', () => {
    const guide = GUIDE.split('\n')
      .filter((line) => !line.includes('OPERATOR_TOKEN'))
      .join('\n')
    expectOnly(check(filledIn(), ['--skip-bundle'], guide), /secret OPERATOR_TOKEN is not named in the deploy guide/)
  })

  it('refuses a secret written as a plain var', () => {
    const toml = inProduction((s) => s.replace('SHOW_OUTBOX = "off"', 'SHOW_OUTBOX = "off"\nPASSWORD_PEPPER = "hunter2"'))
    // wrangler itself refuses a name that is both a var and a required secret; the line says so.
    expectOnly(check(toml), /wrangler cannot read .*PASSWORD_PEPPER assigned to Environment Variable and Secret bindings/)
  })

  it.each(['LOCAL_DEVELOPMENT', 'SHOW_OUTBOX'])('refuses %s = "on" in production', (flag) => {
    const toml = inProduction((s) => s.replace(new RegExp(`${flag} = "off"`), `${flag} = "on"`))
    expectOnly(check(toml), new RegExp(`${flag} is "on" in \\[env\\.production\\.vars\\]`))
  })

  it.each(['LOCAL_DEVELOPMENT', 'SHOW_OUTBOX'])('refuses %s = "on" at the top level, which a deploy without --env would carry', (flag) => {
    const toml = filledIn().replace('[vars]\n', `[vars]\n${flag} = "on"\n`)
    expectOnly(check(toml), new RegExp(`${flag} is "on" at the top level: a deploy without --env production would carry it`))
  })

  it('refuses a service binding (the sandbox) in production', () => {
    const toml = inProduction((s) => `${s}\n[[env.production.services]]\nbinding = "PLATFORM"\nservice = "tablewatch-sandbox"\n\n`)
    expectOnly(check(toml), /service binding PLATFORM \(→ tablewatch-sandbox\): the sandbox platform must not be reachable/)
  })

  it.each(['nodejs_compat', 'global_fetch_strictly_public'])('refuses a configuration without %s', (flag) => {
    const toml = filledIn().replace(/^compatibility_flags = \[.*\]$/m, (line) =>
      line.replace(`"${flag}"`, '').replace('[, ', '[').replace(', ]', ']'),
    )
    expect(toml).not.toContain(`"${flag}"`)
    expectOnly(check(toml), new RegExp(`compatibility flag ${flag} is missing`))
  })

  it('refuses a PUBLIC_BASE_URL that is not https', () => {
    const toml = inProduction((s) => s.replace('PUBLIC_BASE_URL = "https://', 'PUBLIC_BASE_URL = "http://'))
    expectOnly(check(toml), /PUBLIC_BASE_URL http:\/\/tablewatch\.diner\.dev is not https/)
  })

  it('refuses Email Service without a sender', () => {
    const toml = inProduction((s) => s.replace(/MAIL_FROM = .*\n/, ''))
    expectOnly(check(toml), /MAIL_FROM is not set in \[env\.production\.vars\]/)
  })

  it('refuses a configuration without [env.production]', () => {
    expectOnly(check(COMMITTED.slice(0, COMMITTED.indexOf('# Production:'))), /the configuration has no \[env\.production\]/)
  })

  it('measures the bundle as wrangler deploy builds it, against the Workers limit', { timeout: 180_000 }, () => {
    const ok = check(filledIn(), [])
    expect(ok.code, ok.lines.join('\n')).toBe(0)
    expect(ok.out).toMatch(/bundle \d+\.\d\d MiB gzip of 10 MiB on Workers Paid \(Free: 3 MiB, Paid: 10 MiB\)/)
    expectOnly(check(filledIn(), ['--max-gzip-mib', '0.01']), /the bundle is \d+\.\d\d MiB gzip, above the Workers limit of 0\.01 MiB/)
  })
})
