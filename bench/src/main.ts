// `npm run bench`: the sandbox platform and the service under `wrangler dev` on loopback, at
// the service's default polling cadence (POLL_INTERVAL_SECONDS unset: 60 s). Prints a table and
// writes bench/results/latest.json. Its settings (phases, scale, timings) are environment
// variables, listed in settings.ts; `npm run bench -- --help` prints them and runs nothing.
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'
import { dirname, join } from 'node:path'
import { sampleCalls } from './budget'
import { alertsAtDefaultCadence } from './cadence-alerts'
import { coalescing } from './coalescing'
import { contest } from './contest'
import { costModel } from './cost'
import { crashWhileBooking, crashWhilePolling } from './crash'
import { type BenchDevice, pairedDevice } from './devices'
import { apiLatency, CLIENTS } from './latency'
import { ROOT } from './processes'
import { atReleaseInstant } from './release'
import { releaseContest } from './release-contest'
import { type BenchResults, merged, printTables } from './report'
import { scale } from './scale'
import { benchHelp, numberSetting, setting } from './settings'
import { newWebUser, type WebUser } from './users'
import { startWorld } from './world'

const args = process.argv.slice(2)
if (args.includes('--help') || args.includes('-h')) {
  console.log(benchHelp())
  process.exit(0)
}
if (args.length > 0) {
  console.error(`bench: unexpected arguments "${args.join(' ')}": the settings are environment variables.\n\n${benchHelp()}`)
  process.exit(2)
}

const INTERVAL_MS = 60_000 // the service's default POLL_INTERVAL_SECONDS
/** Users who approve the release drops' bookings (one per wave each), plus one for the crash scenario. */
const BOOKERS = 10
const target = numberSetting('BENCH_SCALE')
const only = new Set(setting('BENCH_ONLY').split(','))
const started = Date.now()
const log = (line: string) => console.log(`[bench +${Math.round((Date.now() - started) / 1000)}s] ${line}`)

const world = await startWorld({ bulkUsers: Math.ceil(target / 20) + 120, log })
// Stopped early (Ctrl-C, or `kill` of this process): the servers it started go with it.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void world.close().finally(() => process.exit(130))
  })
}
const load = () => loadavg().map((x) => Math.round(x * 100) / 100)
const results: BenchResults = {
  startedAt: new Date(started).toISOString(),
  machine: { cpus: cpus().length, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version, loadBefore: load() },
  pollIntervalSeconds: INTERVAL_MS / 1000,
}
const calls = sampleCalls(world)
const devices: BenchDevice[] = []
try {
  // Users partitioned by phase: bulk users hold up to 20 open requests each.
  const bulk = world.bulk
  const part = (from: number, count: number) => bulk.slice(from, from + count)
  log('signing up the users who approve bookings, through the pages')
  const emails = Array.from({ length: BOOKERS + 1 }, (_, i) => `bench-booker${i}@sandbox.example`)
  const bookers: WebUser[] = []
  for (const [i, email] of emails.entries()) bookers.push(await newWebUser(world.service.origin, `booker${i}`, email))
  const [crashUser] = part(90, 1)
  const crashBooker = bookers[BOOKERS]
  if (!crashUser || !crashBooker) throw new Error('not enough users')
  // The release phase's users who book from a paired device: each pairs one in Settings, signs
  // in to the platform on it, and chooses to book from it.
  const deviceEmails = only.has('release') ? Array.from({ length: BOOKERS }, (_, i) => `bench-device${i}@sandbox.example`) : []
  const deviceBookers: WebUser[] = []
  if (deviceEmails.length > 0) log(`pairing ${BOOKERS} devices through the Settings page (the device program's own code, in this process)`)
  for (const [i, email] of deviceEmails.entries()) {
    const user = await newWebUser(world.service.origin, `device${i}`, email)
    const device = { service: world.service.origin, platformBase: world.platformBase, apiKey: world.apiKey, platformEmail: email }
    devices.push(await pairedDevice(user, { ...device, name: `bench device ${i}`, log }))
    deviceBookers.push(user)
  }

  if (only.has('latency')) {
    log(`API latency: ${CLIENTS} concurrent clients`)
    results.apiLatency = (await apiLatency(world, part(0, CLIENTS))).routes
  }
  // Coalescing runs on its own service instance and sandbox world, beside detection and crash.
  const coalescingDone = only.has('coalescing')
    ? coalescing(world, INTERVAL_MS).then((rows) => {
        results.coalescing = rows
      })
    : Promise.resolve()
  log(
    `detection: ${[only.has('cadence') && '50 tables each for 1, 10 and 100 requests at the default cadence', only.has('release') && '50 drops at a release instant'].filter(Boolean).join(', and ')} (in parallel)`,
  )
  await Promise.all([
    only.has('cadence') &&
      alertsAtDefaultCadence(world, part(66, 15), INTERVAL_MS).then((r) => {
        results.cadenceAlerts = r
      }),
    only.has('release') &&
      atReleaseInstant(world, {
        cloud: { users: bookers.slice(0, BOOKERS), emails: emails.slice(0, BOOKERS) },
        device: { users: deviceBookers, emails: deviceEmails },
      }).then((r) => {
        results.detectionReleaseInstant = r
      }),
  ])
  if (only.has('contest')) {
    const lags = setting('BENCH_CONTEST_LAGS').split(',').map(Number)
    const dropsPerMean = numberSetting('BENCH_CONTEST_DROPS')
    log(`contest: other diners take each table after Exp(30 s, 2 min, 10 min); calendar lag ${lags.join(', ')} s`)
    // Bookers of their own: the release phase's hold dinners on days 1–25, which would overlap.
    const contestEmails = Array.from({ length: 3 * lags.length }, (_x, i) => `bench-contest${i}@sandbox.example`)
    const contestBookers: WebUser[] = []
    for (const [i, email] of contestEmails.entries()) contestBookers.push(await newWebUser(world.service.origin, `contest${i}`, email))
    results.contest = await contest(world, contestBookers, contestEmails, { intervalMs: INTERVAL_MS, dropsPerMean, lags, log })
  }
  if (only.has('crash')) {
    log('crash safety: kill -9 and restart the service while polling, then while booking')
    const polling = await crashWhilePolling(world, crashUser, INTERVAL_MS)
    const booking = await crashWhileBooking(world, crashBooker, emails[BOOKERS] ?? '')
    results.crash = [polling, booking]
  }
  // The scale phase measures one service alone: the coalescing instance must be gone by then.
  log('waiting for the coalescing scenarios to finish')
  await coalescingDone
  if (only.has('release-contest')) {
    // On the coalescing phase's sandbox world (reset), with a service instance of its own; its days
    // and compressed clock: BENCH_CONTEST_DAYS, BENCH_CONTEST_DAY_SECONDS (settings.ts).
    const days = numberSetting('BENCH_CONTEST_DAYS')
    log(`release contest: ${days} release days, other diners take each table after Exp(5 s) or Exp(30 s)`)
    const contested = await releaseContest(world, { days, log })
    results.releaseContest = contested.days
    results.releaseLearning = contested.learning
  }
  if (only.has('scale')) {
    const steps = [...new Set([Math.min(2_000, target), target])]
    log(`scale: ${steps.join(', then ')} active requests`)
    const users = part(120, bulk.length - 120)
    results.scale = await scale(world, users, {
      steps,
      createBudgetMs: numberSetting('BENCH_CREATE_MINUTES') * 60_000,
      createConcurrency: numberSetting('BENCH_CREATE_CONCURRENCY'),
      settleMs: numberSetting('BENCH_SETTLE_SECONDS') * 1000,
      observeMs: numberSetting('BENCH_OBSERVE_SECONDS') * 1000,
      log,
    })
    const last = results.scale.at(-1)
    if (last) results.costModel = costModel(last)
  }
} finally {
  for (const device of devices) device.close()
  results.budget = await calls.stop()
  results.durationSeconds = Math.round((Date.now() - started) / 1000)
  results.machine.loadAfter = load()
  const file = join(ROOT, 'bench', 'results', 'latest.json')
  mkdirSync(dirname(file), { recursive: true })
  const written = setting('BENCH_MERGE') === 'on' ? merged(file, results, [...only]) : results
  writeFileSync(file, `${JSON.stringify(written, null, 2)}\n`)
  await world.close()
}
console.log(printTables(results))
console.log('\nwritten to bench/results/latest.json')
