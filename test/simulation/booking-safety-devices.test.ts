// The booking-safety simulation with paired devices: every other user books from a
// device that drops its connection mid-booking, restarts mid-work and sends results twice. The
// same invariants hold, checked against the sandbox's own ledger.
import { describe, expect, it } from 'vitest'
import { describeRun, violationsOf } from './sim/report'
import { simulate } from './sim/run'

const SEED = 'tablewatch-17-devices'
const REQUESTS = 40
/** Devices add a WebSocket round trip per platform call; a loaded 2-core machine needs the room. */
const TIMEOUT_MS = 300_000

describe('booking safety with paired devices (reduced run)', () => {
  it(
    `books only what was approved, within its fee limits, once, and records it, whatever the devices do (seed ${SEED})`,
    async () => {
      const report = await simulate({ seed: SEED, requests: REQUESTS, clientTimeouts: false, devices: true })
      console.log(describeRun(SEED, report))
      const zeros = Object.fromEntries(Object.keys(violationsOf(report)).map((k) => [k, 0]))
      expect(violationsOf(report), 'booking-safety violations with devices').toEqual(zeros)
      expect(report.bookings, 'the run booked nothing, so it proved nothing').toBeGreaterThan(0)
      const devices = report.devices
      expect(devices?.bookings, 'no device booked anything').toBeGreaterThan(0)
      expect(devices?.dropsMidBooking, 'no device dropped mid-booking').toBeGreaterThan(0)
      expect(devices?.restartsMidWork, 'no device restarted mid-work').toBeGreaterThan(0)
      expect(devices?.duplicateResults, 'no result came twice').toBeGreaterThan(0)
    },
    TIMEOUT_MS,
  )
})
