// The sandbox platform's control API (sandbox/src/routes/control.ts, /__sandbox/…), reached for
// the local demo control only: "Open a matching table now" on a request's page, and the sandbox
// phone's texts (the codes of code sign-ins) for the page that asks for one. It
// exists only where the PLATFORM service binding does (npm start, the end-to-end harness); the
// production configuration has no such binding, so `sandboxDemo` answers null there. Like the
// platform client, it talks HTTP and shares no code with the sandbox (.dependency-cruiser.cjs):
// the few fields read here are the sandbox's own control format (sandbox/control-client.ts).
import { z } from 'zod'

interface DemoTable {
  venueId: number
  day: string
  time: string
  seating: string
  partyMin: number
  partyMax: number
}

const venuesReply = z.object({ venues: z.array(z.object({ id: z.number(), seatings: z.array(z.string()) })) })
const slotsReply = z.object({ slots: z.array(z.object({ time: z.string(), seating: z.string() })) })
const addedReply = z.object({ added: z.boolean() })
const textsReply = z.object({ texts: z.array(z.object({ mobileNumber: z.string(), body: z.string(), sentAt: z.number() })) })

/** A text message the sandbox platform "sent" (the code of a code sign-in), for a local page to show. */
interface SandboxText {
  mobileNumber: string
  body: string
  sentAt: number
}

export interface SandboxDemo {
  /** The venue's seating names in the sandbox, or null when the sandbox has no such venue. */
  seatingsOf(venueId: number): Promise<string[] | null>
  /** The tables on offer now at the venue on the day for the party (released, not past, not taken). */
  offered(venueId: number, day: string, partySize: number): Promise<{ time: string; seating: string }[]>
  /** Opens a free table (no fee, no deposit, no card); false when the sandbox refused it. */
  open(table: DemoTable): Promise<boolean>
  /**
   * The texts the sandbox's phone received for the number, newest first: locally, where no real
   * text is sent, the page that asks for the code can show it (as the outbox shows the mail).
   */
  texts(mobileNumber: string): Promise<SandboxText[]>
}

type DemoEnv = Pick<Cloudflare.Env, 'PLATFORM' | 'PLATFORM_BASE_URL'>

export function sandboxDemo(env: DemoEnv): SandboxDemo | null {
  if (!env.PLATFORM) return null
  const fetcher: Fetcher = env.PLATFORM
  // The sandbox keeps one world per API host name: the platform client's base URL names the
  // world the service watches and books in.
  const base = `${env.PLATFORM_BASE_URL.replace(/\/+$/, '')}/__sandbox`
  async function call<S extends z.ZodType>(path: string, schema: S, body?: unknown): Promise<z.output<S>> {
    const init: RequestInit =
      body === undefined ? {} : { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }
    const res = await fetcher.fetch(new Request(`${base}${path}`, init))
    // POST /slots answers 404 with {added: false} for an unknown venue; any other 404 means the
    // sandbox runs without its control API (SANDBOX_CONTROL off).
    const parsed = res.ok || res.status === 404 ? schema.safeParse(await res.json().catch(() => null)) : null
    if (!parsed?.success) throw new Error(`the sandbox's control API answered ${res.status} to ${path.split('?')[0]}`)
    return parsed.data
  }
  return {
    async seatingsOf(venueId) {
      const { venues } = await call('/venues', venuesReply)
      return venues.find((v) => v.id === venueId)?.seatings ?? null
    },
    async offered(venueId, day, partySize) {
      const q = new URLSearchParams({ venue_id: String(venueId), day, party_size: String(partySize) })
      return (await call(`/slots?${q}`, slotsReply)).slots
    },
    async open(table) {
      return (await call('/slots', addedReply, { ...table, policy: { kind: 'free' } })).added
    },
    async texts(mobileNumber) {
      return (await call(`/phone/texts?${new URLSearchParams({ number: mobileNumber })}`, textsReply)).texts
    },
  }
}
