// API latency: 50 concurrent clients (each its own user and token) call one route over and
// over, each call followed by GET /health on the same worker, so the trivial route is measured
// under the same load in the same run. Creates are alert_only (they start polling at once).
import { type Api, dayIn, lateSpec, type Spec } from './api'
import { percentile, round } from './stats'
import type { BenchUser } from './users'
import type { World } from './world'

export const CLIENTS = 50
const CALLS_PER_CLIENT = 20 // creates: exactly the 20 open requests a user may hold

export interface RouteLatency {
  route: string
  calls: number
  p50: number | null
  p99: number | null
  healthP50: number | null
  healthP99: number | null
  /** p50 of the route over p50 of /health measured beside it. */
  ratioP50: number | null
  ratioP99: number | null
  non2xx: number
}

function specFor(world: World, client: number, call: number): Spec {
  const venue = world.openVenues[(client * CALLS_PER_CLIENT + call) % world.openVenues.length]
  if (!venue) throw new Error('no venues')
  return lateSpec(venue.id, venue.zone, dayIn(venue.zone, 1 + (call % 10)), 2, 'alert_only')
}

async function measure(
  api: Api,
  clients: BenchUser[],
  name: string,
  call: (user: BenchUser, client: number, i: number) => Promise<{ status: number; ms: number }>,
): Promise<RouteLatency> {
  const route: number[] = []
  const health: number[] = []
  let non2xx = 0
  await Promise.all(
    clients.map(async (user, client) => {
      for (let i = 0; i < CALLS_PER_CLIENT; i++) {
        const r = await call(user, client, i)
        if (r.status >= 300) non2xx += 1
        route.push(r.ms)
        health.push((await api.health()).ms)
      }
    }),
  )
  const p50 = percentile(route, 50)
  const p99 = percentile(route, 99)
  const h50 = percentile(health, 50)
  const h99 = percentile(health, 99)
  return {
    route: name,
    calls: route.length,
    p50: round(p50),
    p99: round(p99),
    healthP50: round(h50),
    healthP99: round(h99),
    ratioP50: p50 !== null && h50 ? round(p50 / h50) : null,
    ratioP99: p99 !== null && h99 ? round(p99 / h99) : null,
    non2xx,
  }
}

export async function apiLatency(
  world: World,
  clients: BenchUser[],
): Promise<{ routes: RouteLatency[]; created: { token: string; id: string }[] }> {
  const { api } = world
  for (const user of clients.slice(0, 5)) await api.list(user.token) // warm the isolate
  const created: { token: string; id: string }[] = []
  const mine = new Map<string, string[]>()
  const routes = [
    await measure(api, clients, 'POST /api/v1/requests/preview', (u, c, i) => api.preview(u.token, specFor(world, c, i))),
    await measure(api, clients, 'POST /api/v1/requests', async (u, c, i) => {
      const res = await api.create(u.token, specFor(world, c, i))
      if (res.body.id) {
        created.push({ token: u.token, id: res.body.id })
        mine.set(u.token, [...(mine.get(u.token) ?? []), res.body.id])
      }
      return res
    }),
    await measure(api, clients, 'GET /api/v1/requests/{id}', (u, _c, i) => {
      const ids = mine.get(u.token) ?? []
      return api.get(u.token, ids[i % Math.max(1, ids.length)] ?? 'sr_missing')
    }),
    await measure(api, clients, 'GET /api/v1/requests', (u) => api.list(u.token)),
  ]
  return { routes, created }
}
