// Prints what a run did and what it found, so a reader sees both the counts and that the run
// really exercised approvals, updates, stops, faults, restarts and bookings.
import type { SimReport } from './run'
import { TOKEN_SECONDS } from './world'

const line = (label: string, value: unknown) => `  ${label.padEnd(44)} ${String(value)}`

export function describeRun(seed: string, report: SimReport): string {
  const { counts, steps, alarms, inventory } = report
  const sorted = (m: Map<string, number>) =>
    [...m]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ')
  return [
    `booking-safety simulation, SEED=${seed}: ${report.requests.length} requests`,
    line('final statuses', JSON.stringify(report.statuses)),
    line('real bookings on the platform (ledger)', report.bookings),
    line('approvals / updated after approval', `${steps.approvedOnce} / ${steps.updatedAfterApproval}`),
    line('stopped mid-verification / asked again', `${steps.stoppedMidVerification} / ${steps.replacedAfterStop}`),
    line('expiries moved into the past mid-run', steps.expiredByTime),
    line('tables dropped / vanished / fees changed', `${inventory.dropped} / ${inventory.removed} / ${inventory.feesChanged}`),
    line('  of those: deposit, prepaid or ticket', inventory.upFront),
    line('  of those: terms not fully stated in find', inventory.termsGaps),
    line('  of those: money outside the slot', inventory.moneyElsewhere),
    line('  of those: a paid add-on or cardholder-only', inventory.notForThisAccount),
    line('bookings the money rules made alerts', report.moneyAlerts),
    line('unclear "gone" answers disproved, watching again', report.disproved),
    line('windows closed unread / those bookings found later', `${report.late.closedUnread} / ${report.late.recorded}`),
    ...report.late.paths.map((p) => `    found later: ${p}`),
    line('venue-day polls / request alarms delivered', `${alarms.polls} / ${alarms.delivered}`),
    line('request alarms redelivered after a crash', alarms.redelivered),
    line('restarts (between steps and mid-phase)', `${alarms.restarts}, alarm runs killed: ${alarms.crashedRuns}`),
    line(`token refreshes (tokens live ${TOKEN_SECONDS} s)`, report.sessions.refreshes),
    line('users asked to reconnect after a refresh answer was lost', report.sessions.afterLostRefresh),
    line(
      'users connected by code / still refused from the cloud at the end',
      `${report.access.codeOnly} / ${report.access.refusedFromCloud}`,
    ),
    line(
      'lapsing sessions: users / sign-ins (refused) / tables told "reconnect to book"',
      `${report.lapses.users} / ${report.lapses.signIns} (${report.lapses.refusedSignIns}) / ${report.lapses.toldReconnectToBook}`,
    ),
    `  faults injected: ${sorted(report.faults)}`,
    ...(report.devices
      ? [
          line(
            'devices: connects / offline rounds / dropped mid-booking / restarted mid-work / duplicate results / bookings',
            [
              report.devices.connects,
              report.devices.offlineRounds,
              report.devices.dropsMidBooking,
              report.devices.restartsMidWork,
              report.devices.duplicateResults,
              report.devices.bookings,
            ].join(' / '),
          ),
        ]
      : []),
    `  API answers: ${sorted(steps.answers)}`,
    'counts (each must be 0):',
    line('unapproved bookings', counts.unapprovedBookings),
    line('bookings over fee limits / deposit, prepaid, ticket', counts.bookingsOverFeeLimitsOrWithDeposits),
    line('double bookings per request', counts.doubleBookingsPerRequest),
    line('double bookings per dinner', counts.doubleBookingsPerDinner),
    line('confirmed without a verified reservation', counts.confirmedWithoutVerifiedReservation),
    line('real bookings the service did not record', counts.bookingsNotRecorded),
    line('requests not closed after expiry', counts.nonTerminalAfterExpiry),
    line('bookings recorded for two requests', counts.bookingsRecordedForSeveralRequests),
    line('cards sent to tables that hold none', counts.cardsSentToNoCardTables),
    line('requests whose watching paused for the session', counts.requestsPausedForTheSession),
    line('bookings the account cannot or must not make', counts.bookingsTheAccountMustNotMake),
    line('open requests or venue-days that lost their alarm', alarms.lostAlarms.length),
    line('alarm runs that failed (not a restart)', report.alarms.errors.length),
    line('API answers 5xx', steps.serverErrors.length),
    line('creates retried with one key giving two requests', steps.idempotencyBreaks),
    line('users asked to reconnect while their refresh token worked', report.sessions.reconnectsAsked),
    line('users whose booking place the service changed', report.access.executionChangedByService),
    ...report.alarms.lostAlarms.map((l) => `  ! lost its alarm: ${l}`),
    ...report.alarms.errors.slice(0, 10).map((e) => `  ! alarm failed: ${e}`),
    ...report.notes.slice(0, 40).map((n) => `  ! ${n}`),
  ].join('\n')
}

/** Every count that must be 0, by name. */
export function violationsOf(report: SimReport): Record<string, number> {
  return {
    ...report.counts,
    lostAlarms: report.alarms.lostAlarms.length,
    alarmErrors: report.alarms.errors.length,
    serverErrors: report.steps.serverErrors.length,
    idempotencyBreaks: report.steps.idempotencyBreaks,
    reconnectsAsked: report.sessions.reconnectsAsked,
    executionChangedByService: report.access.executionChangedByService,
  }
}
