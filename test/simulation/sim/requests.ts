// The simulation's own record of every request it made, and the calls that change them: the
// REST API for create, update and stop (as an assistant would), the approval use case behind the
// approval page (as the signed-in user would). Every accepted change is logged with the time it
// was made, so the checks can tell which approved revision was current when a booking landed.
import { env, runInDurableObject, SELF } from 'cloudflare:test'
import { z } from 'zod'
import { approveRequest } from '../../../src/request-use-cases/approve'
import { requestObject } from '../../../src/runtime/deps'
import type { Dinner, SimSpec } from './plan'
import type { SimUser } from './world'

export interface SimRequest {
  id: string
  user: SimUser
  dinner: Dinner
  /** The spec of each revision, as sent. */
  specs: Map<number, SimSpec>
  revision: number
  approvals: { revision: number; at: number }[]
  /** Accepted updates that made a new revision (and so withdrew any approval). */
  updates: { revision: number; at: number }[]
  stops: { at: number; status: string }[]
  /** Last seen: status, and whether a booking attempt is being verified or still looked for after its window. */
  status: string
  attempt: boolean
  /** Its alarm was consumed by a crash: the runtime would deliver it again. */
  crashed: boolean
  neverApprove: boolean
}

const answerBody = z.object({ id: z.string(), status: z.string(), revision: z.number(), code: z.string() }).partial()

export interface ApiAnswer {
  status: number
  body: z.infer<typeof answerBody>
}

/** Statuses that still need the request's alarm (an attempt is verified even after a stop). */
export const needsAlarm = (r: Pick<SimRequest, 'status' | 'attempt'>) =>
  r.attempt || r.status === 'needs_approval' || r.status === 'active' || r.status === 'awaiting_verification'

async function call(user: SimUser, method: string, path: string, body?: unknown, key?: string): Promise<ApiAnswer> {
  const headers: Record<string, string> = { Authorization: `Bearer ${user.token}` }
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  if (key) headers['Idempotency-Key'] = key
  const res = await SELF.fetch(`http://localhost/api/v1${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  const parsed = answerBody.safeParse(text ? JSON.parse(text) : {})
  return { status: res.status, body: parsed.success ? parsed.data : {} }
}

export async function createVia(dinner: Dinner, spec: SimSpec, key: string): Promise<ApiAnswer> {
  return call(dinner.user, 'POST', '/requests', spec, key)
}

export function recordOf(dinner: Dinner, spec: SimSpec, answer: ApiAnswer, neverApprove: boolean): SimRequest {
  if (!answer.body.id || !answer.body.status) throw new Error(`create answered without an id: ${JSON.stringify(answer.body)}`)
  return {
    id: answer.body.id,
    user: dinner.user,
    dinner,
    specs: new Map([[1, spec]]),
    revision: answer.body.revision ?? 1,
    approvals: [],
    updates: [],
    stops: [],
    status: answer.body.status,
    attempt: false,
    crashed: false,
    neverApprove,
  }
}

export async function updateVia(r: SimRequest, spec: SimSpec, key: string): Promise<ApiAnswer> {
  const at = Date.now()
  const answer = await call(r.user, 'PUT', `/requests/${r.id}`, { revision: r.revision, spec }, key)
  const revision = answer.body.revision
  if (answer.status === 200 && revision !== undefined && revision !== r.revision) {
    r.specs.set(revision, spec)
    r.updates.push({ revision, at })
    r.revision = revision
  }
  if (answer.body.status) r.status = answer.body.status
  return answer
}

export async function stopVia(r: SimRequest): Promise<ApiAnswer> {
  const before = r.status
  const answer = await call(r.user, 'POST', `/requests/${r.id}/stop`)
  if (answer.status === 200) r.stops.push({ at: Date.now(), status: before })
  if (answer.body.status) r.status = answer.body.status
  return answer
}

/** The user approves the revision the approval page showed. */
export async function approve(r: SimRequest): Promise<boolean> {
  const at = Date.now()
  try {
    const view = await approveRequest({ env }, { requestId: r.id, revision: r.revision, userId: r.user.userId })
    r.approvals.push({ revision: r.revision, at })
    r.status = view.status
    return true
  } catch {
    return false // revision changed or the request closed meanwhile: the page would show that
  }
}

interface StoredState {
  status: string
  expiresAt: number
  updatedAt: number
  attempt: { verifyUntil: number } | null
  /** An attempt whose window closed while the account could not be read, still looked for. */
  unsettled?: { checkAt: number } | null
  trace: { at: number; message: string }[]
}

/** The object's own state and alarm, read from its storage. */
export async function inspect(id: string): Promise<{ state: StoredState | null; alarm: number | null }> {
  return runInDurableObject(requestObject(env, id), async (_instance, object) => ({
    state: (await object.storage.get<StoredState>('state')) ?? null,
    alarm: await object.storage.getAlarm(),
  }))
}
