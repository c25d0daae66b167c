// The booking-safety simulation: a seeded random run of requests against the sandbox
// platform, with faults, vanishing tables, changing fees and restarts, checked at the end against
// the platform's own ledger. `npm test` runs a reduced run for a fixed seed, so every run of
// the suite checks the same plan; `npm run simulate` runs >= 1,000 requests for a fresh seed
// (SEED=… replays a seed's plan).
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { freshSeed } from './sim/random'
import { describeRun, violationsOf } from './sim/report'
import { simulate } from './sim/run'

const FIXED_SEED = 'tablewatch-7'
const REDUCED_REQUESTS = 120
const fullRun = Number(env.SIM_REQUESTS || 0)

async function runAndCheck(seed: string, requests: number, clientTimeouts: boolean): Promise<void> {
  console.log(`simulation: SEED=${seed}, ${requests} requests`)
  const report = await simulate({ seed, requests, clientTimeouts })
  console.log(describeRun(seed, report))
  const zeros = Object.fromEntries(Object.keys(violationsOf(report)).map((k) => [k, 0]))
  const replay = `SEED=${seed} SIM_REQUESTS=${requests} npm run simulate`
  expect(violationsOf(report), `booking-safety violations; replay with: ${replay}`).toEqual(zeros)
  expect(report.requests.length).toBeGreaterThanOrEqual(requests)
  expect(report.bookings, 'the run booked nothing, so it proved nothing').toBeGreaterThan(0)
}

describe.runIf(fullRun === 0)('booking safety (reduced run)', () => {
  it(`books only what was approved, within its fee limits, once per request and dinner, and records it (seed ${FIXED_SEED})`, async () => {
    await runAndCheck(FIXED_SEED, REDUCED_REQUESTS, false)
  })
})

describe.runIf(fullRun > 0)('booking safety (full run)', () => {
  const seed = env.SIM_SEED || freshSeed()
  it(`holds every booking-safety invariant over ${fullRun} requests (seed ${seed})`, async () => {
    await runAndCheck(seed, fullRun, true)
  })
})
