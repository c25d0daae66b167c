// `npm run deploy:check`: an offline check of the production configuration before
// `wrangler deploy --env production` (docs/deploy.md; why: docs/decisions/deploy.md). It reads wrangler.toml the way
// wrangler reads it for [env.production] (and for a deploy without --env), and bundles the Worker
// as the deploy would (`wrangler deploy --dry-run --outdir`, no upload, no account). Each problem
// is one line on stderr, `deploy:check: …`; exit 1 if there is any, 0 otherwise.
//
//   --config <path>         the wrangler configuration (default wrangler.toml)
//   --guide <path>          the deploy guide naming the secrets (default docs/deploy.md)
//   --allow-placeholders    accept the committed placeholders (the all-zero D1 and KV ids, the
//                           example.com origin and sender); CI runs this against the repository
//   --plan free|paid        the Workers plan whose size limit applies (default paid: 10 MiB
//                           gzip; free: 3 MiB)
//   --max-gzip-mib <n>      another size limit (tests)
//   --skip-bundle           only the configuration (tests of the other problems)
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const ENV = 'production'

/**
 * The secrets the production service reads (src/env.d.ts; src/core/deployment.ts answers 503
 * without PASSWORD_PEPPER or CSRF_SECRET). OPERATOR_TOKEN guards /health's details.
 * VAPID_PRIVATE_KEY signs and identifies Web Push (without it push is off).
 * Each must be in [env.production.secrets] required — then `wrangler deploy` itself refuses to
 * deploy while one is unset — and named in the guide.
 */
export const SECRETS = ['PLATFORM_API_KEY', 'PLATFORM_TOKEN_KEY', 'PASSWORD_PEPPER', 'CSRF_SECRET', 'OPERATOR_TOKEN', 'VAPID_PRIVATE_KEY']
/** Flags that relax production's rules or show local-only pages; never "on" in a deployment. */
const LOCAL_ONLY_FLAGS = ['LOCAL_DEVELOPMENT', 'SHOW_OUTBOX', 'POLL_TRACE']
/**
 * nodejs_compat for the libraries that need it; global_fetch_strictly_public so that the OAuth
 * library's fetch of a client's metadata document (CIMD) reaches only public addresses, never this
 * zone's own origin (docs/decisions/auth.md).
 */
const REQUIRED_FLAGS = ['nodejs_compat', 'global_fetch_strictly_public']
/** The placeholders the committed configuration carries, documented in docs/deploy.md. */
const PLACEHOLDER_ID = /^0+(-0+)*$/
const PLACEHOLDER_HOST = /(^|\.)example\.(com|org|net)$/
const MIB = 1024 * 1024
const LIMITS_MIB = { free: 3, paid: 10 }

function options(argv) {
  const o = { config: 'wrangler.toml', guide: 'docs/deploy.md', allowPlaceholders: false, plan: 'paid', maxGzipMib: null, bundle: true }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    const value = () => {
      const v = argv[++i]
      if (v === undefined) usage(`${arg} needs a value`)
      return v
    }
    if (arg === '--config') o.config = value()
    else if (arg === '--guide') o.guide = value()
    else if (arg === '--allow-placeholders') o.allowPlaceholders = true
    else if (arg === '--plan') o.plan = value()
    else if (arg === '--max-gzip-mib') o.maxGzipMib = Number(value())
    else if (arg === '--skip-bundle') o.bundle = false
    else usage(`unknown argument "${arg}"`)
  }
  if (!(o.plan in LIMITS_MIB)) usage(`--plan is free or paid, not "${o.plan}"`)
  if (o.maxGzipMib !== null && !(o.maxGzipMib > 0)) usage('--max-gzip-mib is a positive number')
  return o
}

function usage(message) {
  console.error(`deploy:check: ${message}`)
  process.exit(2)
}

/** wrangler's own reading of the configuration, for one environment (undefined: the top level). */
async function readConfig(config, env) {
  const { unstable_readConfig } = await import('wrangler')
  // wrangler warns on stdout about keys not inherited by environments; those are this script's
  // business to judge, not noise for its reader.
  const log = console.log
  const warn = console.warn
  console.log = () => {}
  console.warn = () => {}
  try {
    return unstable_readConfig({ config, env }, { hideWarnings: true })
  } finally {
    console.log = log
    console.warn = warn
  }
}

function isOn(value) {
  return typeof value === 'string' && value.trim().toLowerCase() === 'on'
}

/** The problems of the production environment's configuration, one sentence each. */
export function configProblems({ production, topLevel, rawToml, guide, allowPlaceholders }) {
  const problems = []
  const where = `[env.${ENV}]`
  if (!/^\s*\[env\.production\]/m.test(rawToml))
    return [`the configuration has no ${where}: deploy with --env ${ENV} from a config that has one`]
  const vars = production.vars ?? {}

  for (const db of production.d1_databases ?? []) {
    if (!db.database_id)
      problems.push(`D1 binding ${db.binding} in ${where} has no database_id (wrangler d1 create, docs/deploy.md step 2)`)
    else if (PLACEHOLDER_ID.test(db.database_id) && !allowPlaceholders)
      problems.push(`D1 binding ${db.binding} in ${where} still has the placeholder database_id ${db.database_id} (wrangler d1 create)`)
  }
  if (!(production.d1_databases ?? []).some((db) => db.binding === 'DB')) problems.push(`${where} has no D1 binding DB`)
  for (const kv of production.kv_namespaces ?? []) {
    if (!kv.id) problems.push(`KV binding ${kv.binding} in ${where} has no id (wrangler kv namespace create)`)
    else if (PLACEHOLDER_ID.test(kv.id) && !allowPlaceholders)
      problems.push(`KV binding ${kv.binding} in ${where} still has the placeholder id ${kv.id} (wrangler kv namespace create)`)
  }
  if (!(production.kv_namespaces ?? []).some((kv) => kv.binding === 'OAUTH_KV')) problems.push(`${where} has no KV binding OAUTH_KV`)

  const required = production.secrets?.required ?? []
  for (const name of SECRETS) {
    if (!required.includes(name))
      problems.push(`secret ${name} is not listed in [env.${ENV}.secrets] required, so wrangler deploy would not refuse to run without it`)
    if (!new RegExp(`wrangler secret put ${name}\\b|^${name}=`, 'm').test(guide))
      problems.push(`secret ${name} is not named in the deploy guide (how to set it: wrangler secret put ${name} --env ${ENV})`)
    if (name in vars)
      problems.push(`${name} is a plain var in [env.${ENV}.vars]; it is a secret (wrangler secret put ${name} --env ${ENV})`)
  }
  for (const name of required)
    if (!SECRETS.includes(name)) problems.push(`secret ${name} is required in [env.${ENV}.secrets] but the service never reads it`)

  for (const flag of LOCAL_ONLY_FLAGS) {
    if (isOn(vars[flag])) problems.push(`${flag} is "on" in [env.${ENV}.vars]: a local-development flag must never reach a deployment`)
    if (isOn(topLevel.vars?.[flag]))
      problems.push(`${flag} is "on" at the top level: a deploy without --env ${ENV} would carry it (pass it to wrangler dev instead)`)
  }
  // The release contest's compressed clock (src/watching/release-clock.ts) would make every release instant wrong.
  if (vars.RELEASE_CLOCK || topLevel.vars?.RELEASE_CLOCK)
    problems.push('RELEASE_CLOCK is set: it compresses the release clock for the benchmark and must never reach a deployment')
  for (const service of production.services ?? [])
    problems.push(
      `${where} has the service binding ${service.binding} (→ ${service.service}): the sandbox platform must not be reachable in production`,
    )

  const base = vars.PUBLIC_BASE_URL
  let origin = null
  try {
    origin = typeof base === 'string' ? new URL(base) : null
  } catch {}
  if (!origin)
    problems.push(`PUBLIC_BASE_URL is not set in [env.${ENV}.vars] (the service's https origin, e.g. https://tablewatch.example.com)`)
  else if (origin.protocol !== 'https:') problems.push(`PUBLIC_BASE_URL ${base} is not https`)
  else if (PLACEHOLDER_HOST.test(origin.hostname) && !allowPlaceholders) problems.push(`PUBLIC_BASE_URL is still the placeholder ${base}`)
  if (vars.MAILER === 'cloudflare') {
    const from = typeof vars.MAIL_FROM === 'string' ? vars.MAIL_FROM : ''
    const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1]
    if (!domain)
      problems.push(`MAIL_FROM is not set in [env.${ENV}.vars] (e.g. "Tablewatch <alerts@your-domain>"), and MAILER is cloudflare`)
    else if (PLACEHOLDER_HOST.test(domain) && !allowPlaceholders) problems.push(`MAIL_FROM is still the placeholder ${from}`)
    if (!(production.send_email ?? []).some((b) => b.name === 'EMAIL'))
      problems.push(`MAILER is cloudflare but ${where} has no send_email binding EMAIL`)
  }

  if (!production.compatibility_date) problems.push(`${where} has no compatibility_date`)
  for (const flag of REQUIRED_FLAGS)
    if (!(production.compatibility_flags ?? []).includes(flag))
      problems.push(`compatibility flag ${flag} is missing (add "${flag}" to compatibility_flags)`)
  return problems
}

/** The gzip size of what `wrangler deploy --env production` would upload (its modules). */
function bundleGzipBytes(config) {
  const outdir = mkdtempSync(join(tmpdir(), 'deploy-check-'))
  try {
    execFileSync(
      process.execPath,
      [join(ROOT, 'node_modules/wrangler/bin/wrangler.js'), 'deploy', '--dry-run', '--env', ENV, '-c', config, '--outdir', outdir],
      {
        cwd: ROOT,
        env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true', NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    const files = []
    const walk = (dir) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name)
        if (statSync(path).isDirectory()) walk(path)
        else if (!name.endsWith('.map') && name !== 'README.md') files.push(path)
      }
    }
    walk(outdir)
    return files.reduce((sum, path) => sum + gzipSync(readFileSync(path)).length, 0)
  } finally {
    rmSync(outdir, { recursive: true, force: true })
  }
}

async function main() {
  const o = options(process.argv.slice(2))
  const config = resolve(o.config)
  if (!existsSync(config)) usage(`no configuration at ${o.config}`)
  const guide = existsSync(resolve(o.guide)) ? readFileSync(resolve(o.guide), 'utf8') : ''
  const problems = []
  if (!guide) problems.push(`the deploy guide ${o.guide} is missing`)
  const rawToml = readFileSync(config, 'utf8')
  let read = null
  try {
    read = await Promise.all([readConfig(config, ENV), readConfig(config, undefined)])
  } catch (err) {
    problems.push(
      `wrangler cannot read ${o.config}: ${String(err.message ?? err)
        .replace(/\s*\n\s*/g, ' ')
        .replace(/^Processing .*? configuration: /, '')}`,
    )
  }
  if (read) {
    const [production, topLevel] = read
    problems.push(...configProblems({ production, topLevel, rawToml, guide, allowPlaceholders: o.allowPlaceholders }))
  }

  let sizeLine = 'bundle size not checked (--skip-bundle)'
  if (o.bundle && read) {
    const limitMib = o.maxGzipMib ?? LIMITS_MIB[o.plan]
    let bytes = null
    try {
      bytes = bundleGzipBytes(config)
    } catch (err) {
      const output = `${err.stdout ?? ''}${err.stderr ?? ''}`.trim().split('\n').slice(-5).join(' / ')
      problems.push(`wrangler deploy --dry-run --env ${ENV} failed: ${output || err.message}`)
    }
    if (bytes !== null) {
      const mib = (bytes / MIB).toFixed(2)
      const limitText = o.maxGzipMib !== null ? `${limitMib} MiB` : `${limitMib} MiB on Workers ${o.plan === 'paid' ? 'Paid' : 'Free'}`
      if (bytes > limitMib * MIB) problems.push(`the bundle is ${mib} MiB gzip, above the Workers limit of ${limitText}`)
      sizeLine = `bundle ${mib} MiB gzip of ${limitText} (Free: ${LIMITS_MIB.free} MiB, Paid: ${LIMITS_MIB.paid} MiB)`
    }
  }
  for (const problem of problems) console.error(`deploy:check: ${problem}`)
  if (problems.length > 0) process.exit(1)
  console.log(`deploy:check: [env.${ENV}] is ready to deploy${o.allowPlaceholders ? ' (placeholders allowed)' : ''}; ${sizeLine}`)
}

await main()
