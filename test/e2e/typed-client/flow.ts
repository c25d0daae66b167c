// What a REST client written against the served OpenAPI document does, with types generated from
// that document (openapi-typescript, into ./generated, which git ignores) and openapi-fetch:
// search, create, read, stop. test/e2e/tools/openapi-client.test.ts generates the types, type-checks
// this file against them, then runs it against the service.
import createClient from 'openapi-fetch'
import type { paths } from './generated/api'

type Spec = paths['/api/v1/requests']['post']['requestBody']['content']['application/json']

export interface FlowResult {
  createdStatus: number
  created: { id: string; status: string; revision: number }
  read: { id: string; status: string }
  stopped: { id: string; status: string }
}

function clientFor(baseUrl: string, token: string) {
  return createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${token}` } })
}

export async function createGetStop(baseUrl: string, token: string, day: string): Promise<FlowResult> {
  const api = clientFor(baseUrl, token)
  const search = await api.GET('/api/v1/restaurants', { params: { query: { q: 'Juniper' } } })
  const venue = search.data?.restaurants[0]
  if (!venue) throw new Error(`restaurant search answered ${search.response.status}`)
  const spec: Spec = {
    title: 'Typed client dinner',
    venue_ids: [venue.venue_id],
    dates: [day],
    earliest_time: '18:00',
    latest_time: '21:00',
    timezone: venue.time_zone,
    party_size: 2,
    mode: 'alert_only',
    expires_at: `${day}T20:00:00Z`,
  }
  const created = await api.POST('/api/v1/requests', {
    params: { header: { 'idempotency-key': `typed-${crypto.randomUUID()}` } },
    body: spec,
  })
  if (!created.data) throw new Error(`create answered ${created.response.status}: ${JSON.stringify(created.error)}`)
  const id = created.data.id
  const read = await api.GET('/api/v1/requests/{request_id}', { params: { path: { request_id: id } } })
  const stopped = await api.POST('/api/v1/requests/{request_id}/stop', { params: { path: { request_id: id } } })
  if (!read.data || !stopped.data) throw new Error('read or stop failed')
  return {
    createdStatus: created.response.status,
    created: { id, status: created.data.status, revision: created.data.revision },
    read: { id: read.data.id, status: read.data.status },
    stopped: { id: stopped.data.id, status: stopped.data.status },
  }
}

/** Never run: it only has to type-check, which it does only if the generated types are precise. */
export function misusesTheTypesCatch(baseUrl: string, token: string, spec: Spec): void {
  const api = clientFor(baseUrl, token)
  // @ts-expect-error party_size is a number in the document
  void api.POST('/api/v1/requests', { params: { header: { 'idempotency-key': 'k-12345678' } }, body: { ...spec, party_size: 'two' } })
  // @ts-expect-error mode is one of alert_only and auto_book
  void api.POST('/api/v1/requests/preview', { body: { ...spec, mode: 'book_anything' } })
  // @ts-expect-error the document has no DELETE on a request
  void api.DELETE('/api/v1/requests/{request_id}', { params: { path: { request_id: 'sr_x' } } })
}
