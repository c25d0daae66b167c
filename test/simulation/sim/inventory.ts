// What changes on the platform between alarm phases: tables appear inside the windows the
// simulated users watch, vanish again, and change their fees. Removals and fee changes happen
// while the coalesced find answers are still fresh, so the watcher acts on a find that no
// longer holds: the slot is gone at booking, or its fees differ in the details.
import { type Policy, type SandboxControl, type SandboxVenueView, type SlotKeyInput, TERMS_GAPS } from '../../../sandbox/control-client'
import { hhmm, minutesOf } from './plan'
import type { Rng } from './random'
import type { SimRequest } from './requests'

const OUTDOOR_SEATS = ['Patio', 'Garden', 'Rooftop', 'Terrace']
const INDOOR_SEATS = ['Dining Room', 'Bar', 'Counter', 'Booth']

export function randomPolicy(rng: Rng): Policy {
  const terms: Policy = { ...termsOf(rng), ...moneyElsewhere(rng), ...notForThisAccount(rng) }
  // Sometimes the find reply does not state them fully (a field missing, the template saying
  // otherwise, the details without amounts, resy-api.md, "Corrections and additions", "Corrections (third review)"): the service must alert,
  // whatever the table really costs.
  return rng.chance(0.12) ? { ...terms, gap: rng.pick(TERMS_GAPS) } : terms
}

/**
 * Money stated outside the find slot's payment, on some tables: a per-person fee
 * only in the notes, large-party terms (within or above the limits, for parties the requests may
 * or may not reach), charges in the booking details.
 */
type MoneyElsewhere = Pick<Policy, 'textFeePerPerson' | 'largeParty' | 'charges'>
function moneyElsewhere(rng: Rng): MoneyElsewhere {
  if (!rng.chance(0.2)) return {}
  return rng.weighted<MoneyElsewhere>([
    [{ textFeePerPerson: rng.pick([10, 25]) }, 1],
    [{ largeParty: { size: rng.pick([2, 3, 4, 6]), feePerPerson: rng.pick([0, 20, 50, 100]) } }, 2],
    [{ charges: rng.pick([{ resyFee: 5 }, { serviceFee: 12 }, { tax: 1.5 }, { resyFee: 2, tax: 0.18 }]) }, 1],
  ])
}

/**
 * Tables the account cannot or must not book (docs/platform.md, "Availability", "Money terms"): a
 * paid add-on stated only by `payment.is_add_on_required`, and cardholder-only inventory
 * (`exclusive.is_eligible: false`, `is_global_dining_access: true`).
 */
type NotForThisAccount = Pick<Policy, 'addOnPerPerson' | 'access'>
function notForThisAccount(rng: Rng): NotForThisAccount {
  if (!rng.chance(0.12)) return {}
  return rng.weighted<NotForThisAccount>([
    [{ addOnPerPerson: rng.pick([25, 45]) }, 2],
    [{ access: 'exclusive' }, 1],
    [{ access: 'global_dining_access' }, 1],
  ])
}

/** A table the account cannot or must not book, whatever its other terms (see notForThisAccount). */
export const notBookableByTheAccount = (p: Policy) => p.addOnPerPerson !== undefined || p.access !== undefined

/** The table carries money terms that only the money rules read (see moneyElsewhere). */
export const hasMoneyElsewhere = (p: Policy) =>
  p.textFeePerPerson !== undefined || p.largeParty !== undefined || p.charges !== undefined || p.gap === 'amounts_missing'

function termsOf(rng: Rng): Policy {
  return rng.weighted<Policy>([
    [{ kind: 'free' }, 10],
    [{ kind: 'fee', feePerPerson: rng.pick([5, 10, 25, 40, 50, 75, 150]), cutoffHours: rng.pick([0, 2, 12, 24, 48, 72]) }, 5],
    // Free until a time of day on the day before or the day itself (time_cancel_cut_off on the wire).
    [{ kind: 'fee', feePerPerson: rng.pick([10, 25, 50]), cutoffHours: rng.pick([0, 24]), cutoffTime: rng.pick(['12:00', '17:00']) }, 2],
    [{ kind: 'deposit', amountPerPerson: rng.pick([20, 40]), cutoffHours: rng.pick([24, 48]) }, 2],
    [{ kind: 'prepaid', amountPerPerson: 120 }, 1],
    [{ kind: 'ticketed', amountPerPerson: 95 }, 1],
  ])
}

export class Inventory {
  /** upFront: tables dropped or changed to a deposit, prepaid meal or ticket; termsGaps: to terms the find reply does not fully state. */
  readonly counts = { dropped: 0, removed: 0, feesChanged: 0, upFront: 0, termsGaps: 0, moneyElsewhere: 0, notForThisAccount: 0 }

  constructor(
    private readonly control: SandboxControl,
    private readonly venues: Map<number, SandboxVenueView>,
  ) {}

  /** A table inside the request's current window, for a party that may or may not fit. */
  async dropFor(rng: Rng, r: SimRequest): Promise<void> {
    const spec = r.specs.get(r.revision)
    if (!spec) return
    const venueId = rng.pick(spec.venue_ids)
    const from = minutesOf(spec.earliest_time)
    const to = minutesOf(spec.latest_time)
    const time = hhmm(from + 15 * rng.int(0, Math.floor((to - from) / 15)))
    const known = this.venues.get(venueId)?.seatings ?? []
    const seating = rng.chance(0.6) && known.length > 0 ? rng.pick(known) : rng.pick([...INDOOR_SEATS, ...OUTDOOR_SEATS])
    const fits = rng.chance(0.85)
    const key = { venueId, day: rng.pick(spec.dates), time, seating }
    const party = fits ? { partyMin: 1, partyMax: 8 } : { partyMin: Math.min(20, spec.party_size + 1), partyMax: 20 }
    const policy = randomPolicy(rng)
    if (await this.control.addSlot({ ...key, ...party, policy })) {
      this.counts.dropped += 1
      this.#countTerms(policy)
    }
  }

  /** Takes tables off sale: dropped ones, or generated ones inside a watched window. */
  async vanish(rng: Rng, r: SimRequest): Promise<void> {
    const key = await this.someOffered(rng, r)
    if (key && (await this.control.removeSlot(key))) this.counts.removed += 1
  }

  async changeFees(rng: Rng, r: SimRequest): Promise<void> {
    const key = await this.someOffered(rng, r)
    const policy = randomPolicy(rng)
    if (key && (await this.control.setPolicy(key, policy))) {
      this.counts.feesChanged += 1
      this.#countTerms(policy)
    }
  }

  #countTerms(policy: Policy): void {
    if (policy.kind === 'deposit' || policy.kind === 'prepaid' || policy.kind === 'ticketed') this.counts.upFront += 1
    if (policy.gap) this.counts.termsGaps += 1
    if (hasMoneyElsewhere(policy)) this.counts.moneyElsewhere += 1
    if (notBookableByTheAccount(policy)) this.counts.notForThisAccount += 1
  }

  async #offeredIn(r: SimRequest): Promise<SlotKeyInput[]> {
    const spec = r.specs.get(r.revision)
    if (!spec) return []
    const venueId = spec.venue_ids[0]
    const day = spec.dates[0]
    if (venueId === undefined || day === undefined) return []
    const slots = await this.control.slots(venueId, day)
    return slots
      .filter((s) => s.time >= spec.earliest_time && s.time <= spec.latest_time)
      .map(({ venueId: v, day: d, time, seating }) => ({ venueId: v, day: d, time, seating }))
  }

  private async someOffered(rng: Rng, r: SimRequest): Promise<SlotKeyInput | null> {
    const offered = await this.#offeredIn(r)
    return offered.length > 0 ? rng.pick(offered) : null
  }
}
