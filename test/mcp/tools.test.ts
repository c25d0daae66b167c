// The MCP tools (the operation table's, test/helpers/operations.ts): names, schemas and annotations, and each one calling the same use case
// as its REST route (a request made on MCP is the one REST shows for the same token).
import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { api, newKey } from '../helpers/api'
import { createUserWithToken, scopesWithout } from '../helpers/auth'
import type { JsonBody } from '../helpers/json'
import { MCP_TOOL_NAMES, mcpToolNamesFor } from '../helpers/operations'
import { insertReservation, validSpec } from '../helpers/requests'
import { seedVenues, UNKNOWN_VENUE_ID, VENUES } from '../helpers/venues'
import { callTool, initialize, listTools, mcpPost, rpc } from './mcp-client'

const NAMES = MCP_TOOL_NAMES

async function newToken(scopes?: Parameters<typeof createUserWithToken>[0]) {
  await seedVenues()
  return (await createUserWithToken(scopes)).token
}

async function createActive(token: string) {
  const created = await callTool(token, 'svc_create_request', { spec: validSpec(), idempotency_key: newKey() })
  expect(created.isError, created.text).toBe(false)
  return created.structured ?? {}
}

describe('tools/list', () => {
  it('lists exactly the eight tools, each with an input schema and annotations (no output schema: tools/list stays small)', async () => {
    const tools = await listTools(await newToken())
    expect(tools.map((t) => t.name).sort()).toEqual([...NAMES].sort())
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object')
      expect(tool.outputSchema).toBeUndefined()
      expect(tool.description.length).toBeGreaterThan(40)
      expect(typeof tool.annotations.readOnlyHint).toBe('boolean')
      expect(typeof tool.annotations.openWorldHint).toBe('boolean')
    }
  })

  it('gives create and update the arguments of the contract, required', async () => {
    const tools = await listTools(await newToken())
    const byName = new Map(tools.map((t) => [t.name, t]))
    expect(byName.get('svc_create_request')?.inputSchema.required.sort()).toEqual(['idempotency_key', 'spec'])
    expect(byName.get('svc_update_request')?.inputSchema.required.sort()).toEqual(['idempotency_key', 'request_id', 'revision', 'spec'])
    const spec = byName.get('svc_create_request')?.inputSchema.properties.spec
    expect(spec.additionalProperties).toBe(false)
    expect(spec.required.sort()).toEqual(['dates', 'earliest_time', 'expires_at', 'latest_time', 'venue_ids'])
  })

  it('marks reads read-only, stop and update destructive, and writes idempotent', async () => {
    const tools = await listTools(await newToken())
    const hints = Object.fromEntries(tools.map((t) => [t.name, t.annotations]))
    for (const name of ['svc_find_restaurants', 'svc_preview_request', 'svc_get_request', 'svc_list_requests', 'svc_get_reservation']) {
      expect(hints[name].readOnlyHint, name).toBe(true)
    }
    expect(hints.svc_create_request).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true })
    expect(hints.svc_update_request).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true })
    expect(hints.svc_stop_request).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true })
  })

  it('states the assistant rules in the descriptions', async () => {
    const tools = await listTools(await newToken())
    const text = (name: string) => String(tools.find((t) => t.name === name)?.description)
    expect(text('svc_create_request')).toContain('action_url')
    expect(text('svc_preview_request')).toContain('confirms')
    expect(text('svc_get_request')).toContain('verified: true')
    expect(text('svc_stop_request')).toContain('never cancels')
  })
})

describe('what tools/list offers', () => {
  it('leaves out the tools the token’s scopes do not allow', async () => {
    const readOnly = await listTools(await newToken({ scopes: ['requests:read'] }))
    expect(readOnly.map((t) => t.name).sort()).toEqual(mcpToolNamesFor(['requests:read']).sort())
    const noWrite = await listTools(await newToken({ scopes: scopesWithout('requests:write') }))
    expect(noWrite.map((t) => t.name)).not.toContain('svc_create_request')
    expect(noWrite.map((t) => t.name)).toContain('svc_get_reservation')
  })

  it('describes every input property, nested ones included (from the same zod schema as OpenAPI), the spec once', async () => {
    const tools = await listTools(await newToken())
    const byName = new Map(tools.map((t) => [t.name, t]))
    const undescribed: string[] = []
    const walk = (schema: JsonBody, path: string) => {
      for (const [name, property] of Object.entries<JsonBody>(schema.properties ?? {})) {
        if (typeof property.description !== 'string' || property.description.length < 10) undescribed.push(`${path}.${name}`)
        // Preview and update point to the tool whose spec carries the field descriptions, and
        // keep every constraint (the same JSON Schema without the words).
        const describedBy = /the same spec (svc_\w+) takes/.exec(String(property.description))?.[1]
        if (describedBy) {
          const described = byName.get(describedBy)?.inputSchema.properties[name]
          expect(JSON.stringify(property).length).toBeGreaterThan(500)
          expect(Object.keys(property.properties)).toEqual(Object.keys(described.properties))
          expect(property.required).toEqual(described.required)
          walk(described, `${describedBy}.${name}`)
        } else walk(property, `${path}.${name}`)
      }
    }
    for (const tool of tools) walk(tool.inputSchema, tool.name)
    expect(undescribed).toEqual([])
    const spec = tools.find((t) => t.name === 'svc_create_request')?.inputSchema.properties.spec.properties
    expect(spec.max_cancellation_fee_per_person.description).toMatch(/USD/)
    expect(spec.fee_review_hours.description).toMatch(/free-cancellation deadline/)
    expect(spec.earliest_time.description).toMatch(/timezone/)
    expect(spec.party_size.default).toBe(2)
  })

  it('describes the spec in the same words as the OpenAPI document (one schema feeds both)', async () => {
    const tools = await listTools(await newToken())
    const mcpSpec: Record<string, JsonBody> = tools.find((t) => t.name === 'svc_create_request')?.inputSchema.properties.spec.properties
    const openapi = (await (await SELF.fetch('http://localhost/api/v1/openapi.json')).json()) as JsonBody
    const restSpec: Record<string, JsonBody> = openapi.components.schemas.RequestSpec.properties
    const described = (properties: Record<string, JsonBody>) =>
      Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, property.description]))
    expect(Object.entries(described(restSpec)).filter(([, text]) => typeof text !== 'string' || text.length < 10)).toEqual([])
    expect(described(restSpec)).toEqual(described(mcpSpec))
  })

  it('does not advertise tools.listChanged: the list never changes during a connection', async () => {
    const res = await initialize(await newToken())
    expect(res.message?.result.capabilities.tools).toEqual({ listChanged: false })
  })
})

describe('the tools', () => {
  it('svc_find_restaurants returns venue ids and time zones', async () => {
    const result = await callTool(await newToken(), 'svc_find_restaurants', { q: 'Lilac' })
    expect(result.isError).toBe(false)
    expect(result.structured?.restaurants).toEqual([
      expect.objectContaining({ venue_id: VENUES.ny[0]?.venue_id, time_zone: 'America/New_York' }),
    ])
    expect(result.text).toContain('Lilac Trattoria')
  })

  it('svc_preview_request resolves the spec and creates nothing', async () => {
    const token = await newToken()
    const result = await callTool(token, 'svc_preview_request', { spec: validSpec() })
    expect(result.structured).toMatchObject({ valid: true, timezone: 'America/New_York' })
    expect(result.structured?.restaurants[0].name).toBe('Lilac Trattoria')
    expect(result.text).toContain('Confirm with the user')
    expect((await callTool(token, 'svc_list_requests', {})).structured?.requests).toEqual([])
  })

  it('svc_create_request starts alert_only requests active, and REST shows the same request', async () => {
    const token = await newToken()
    const view = await createActive(token)
    expect(view).toMatchObject({ status: 'active', revision: 1 })
    const rest = await api(`/requests/${String(view.id)}`, { token })
    expect(rest.status).toBe(200)
    expect(rest.body).toMatchObject({ id: view.id, status: 'active', revision: 1 })
  })

  it('svc_create_request gives an auto_book request its action_url, in the text too', async () => {
    const result = await callTool(await newToken(), 'svc_create_request', {
      spec: validSpec({ mode: 'auto_book' }),
      idempotency_key: newKey(),
    })
    expect(result.structured?.status).toBe('needs_approval')
    const url = String(result.structured?.action_url)
    expect(url).toMatch(/\/requests\/sr_[^/]+\/approve\?revision=1$/)
    expect(result.text).toContain(url)
  })

  it('svc_create_request with the same key and spec returns the same request; another spec conflicts', async () => {
    const token = await newToken()
    const key = newKey()
    const spec = validSpec()
    const first = await callTool(token, 'svc_create_request', { spec, idempotency_key: key })
    const again = await callTool(token, 'svc_create_request', { spec, idempotency_key: key })
    expect(again.structured?.id).toBe(first.structured?.id)
    const other = await callTool(token, 'svc_create_request', { spec: { ...spec, party_size: 4 }, idempotency_key: key })
    expect(other.error?.code).toBe('idempotency_conflict')
  })

  it('svc_get_request and svc_list_requests read what this token created', async () => {
    const token = await newToken()
    const view = await createActive(token)
    const got = await callTool(token, 'svc_get_request', { request_id: view.id })
    expect(got.structured).toMatchObject({ id: view.id, status: 'active' })
    expect(got.text).toContain(`Request ${String(view.id)} is active`)
    const list = await callTool(token, 'svc_list_requests', { limit: 5 })
    expect(list.structured?.requests.map((r: { id: string }) => r.id)).toEqual([view.id])
    expect(list.structured?.next_cursor).toBeNull()
  })

  it('svc_update_request replaces the spec under optimistic locking', async () => {
    const token = await newToken()
    const view = await createActive(token)
    const updated = await callTool(token, 'svc_update_request', {
      request_id: view.id,
      revision: 1,
      spec: validSpec({ party_size: 4 }),
      idempotency_key: newKey(),
    })
    expect(updated.structured).toMatchObject({ revision: 2, party_size: 4 })
    const stale = await callTool(token, 'svc_update_request', {
      request_id: view.id,
      revision: 1,
      spec: validSpec({ party_size: 3 }),
      idempotency_key: newKey(),
    })
    expect(stale.error?.code).toBe('revision_conflict')
  })

  it('svc_stop_request stops monitoring and says it cancels nothing', async () => {
    const token = await newToken()
    const view = await createActive(token)
    const stopped = await callTool(token, 'svc_stop_request', { request_id: view.id })
    expect(stopped.structured?.status).toBe('stopped')
    expect(stopped.text).toContain('never cancels')
    expect((await callTool(token, 'svc_stop_request', { request_id: view.id })).structured?.status).toBe('stopped')
  })

  it('svc_get_reservation reads a verified reservation of this token', async () => {
    const token = await newToken()
    const view = await createActive(token)
    const reservationId = await insertReservation(String(view.id), { verified: true })
    const result = await callTool(token, 'svc_get_reservation', { reservation_id: reservationId })
    expect(result.structured).toMatchObject({ reservation_id: reservationId, verified: true })
    expect(result.text).toContain('is verified')
    const second = await callTool(token, 'svc_create_request', {
      spec: validSpec({ venue_ids: [VENUES.ny[1]?.venue_id] }),
      idempotency_key: newKey(),
    })
    const unverified = await insertReservation(String(second.structured?.id), { verified: false })
    expect((await callTool(token, 'svc_get_reservation', { reservation_id: unverified })).text).toContain('not verified yet')
  })
})

describe('tool results', () => {
  it('carry a one-line summary, then the structured content as JSON text', async () => {
    const token = await newToken()
    const created = await callTool(token, 'svc_create_request', { spec: validSpec({ mode: 'auto_book' }), idempotency_key: newKey() })
    const results = [
      await callTool(token, 'svc_find_restaurants', { q: 'Lilac' }),
      await callTool(token, 'svc_preview_request', { spec: validSpec() }),
      created,
      await callTool(token, 'svc_get_request', { request_id: created.structured?.id }),
      await callTool(token, 'svc_list_requests', {}),
    ]
    for (const result of results) {
      expect(result.isError).toBe(false)
      expect(result.texts).toHaveLength(2)
      expect(result.texts[0]).not.toContain('\n')
      expect(JSON.parse(result.texts[1] ?? '')).toEqual(result.structured)
    }
    expect(created.texts[0]).toContain(String(created.structured?.action_url))
  })
})

describe('tool errors', () => {
  it("carry the contract's code and message", async () => {
    const token = await newToken()
    const unknown = await callTool(token, 'svc_preview_request', { spec: validSpec({ venue_ids: [UNKNOWN_VENUE_ID] }) })
    expect(unknown.isError).toBe(true)
    expect(unknown.error).toMatchObject({ code: 'venue_not_found', message: expect.stringContaining(String(UNKNOWN_VENUE_ID)) })
    const missing = await callTool(token, 'svc_get_request', { request_id: 'sr_missing' })
    expect(missing.error?.code).toBe('request_not_found')
    expect((await callTool(token, 'svc_get_reservation', { reservation_id: 987654 })).error?.code).toBe('reservation_not_found')
  })

  it('refuse arguments outside the schema, in the same shape, before any use case runs', async () => {
    const token = await newToken()
    const noKey = await callTool(token, 'svc_create_request', { spec: validSpec() })
    expect(noKey.error?.code).toBe('idempotency_key_required')
    expect(noKey.error?.message).toContain('idempotency_key argument')
    expect(noKey.error?.message).not.toContain('header')
    const badCursor = await callTool(token, 'svc_list_requests', { cursor: 'not-a-cursor' })
    expect(badCursor.error).toMatchObject({ code: 'invalid_request', detail: [{ loc: ['arguments', 'cursor'] }] })
    const badKey = await callTool(token, 'svc_create_request', { spec: validSpec(), idempotency_key: 'short' })
    expect(badKey.error).toMatchObject({ code: 'invalid_request', detail: [{ loc: ['arguments', 'idempotency_key'] }] })
    const extra = await callTool(token, 'svc_preview_request', { spec: validSpec({ surprise: 1 }) })
    expect(extra.error).toMatchObject({
      code: 'invalid_request',
      detail: [{ loc: ['arguments', 'spec', 'surprise'], type: 'extra_forbidden' }],
    })
    const wrongType = await callTool(token, 'svc_find_restaurants', { q: 7 })
    expect(wrongType.error?.code).toBe('invalid_request')
    expect((await callTool(token, 'svc_list_requests', {})).structured?.requests).toEqual([])
  })

  it('refuse a tool outside the token’s scopes with HTTP 403 and a challenge naming its scope and the token’s own', async () => {
    const token = await newToken({ scopes: scopesWithout('requests:write') })
    const before = await callTool(token, 'svc_list_requests', {})
    const res = await mcpPost(
      rpc('tools/call', { name: 'svc_create_request', arguments: { spec: validSpec(), idempotency_key: newKey() } }),
      {
        token,
      },
    )
    expect(res.status).toBe(403)
    const challenge = res.headers.get('WWW-Authenticate') ?? ''
    expect(challenge).toContain('error="insufficient_scope"')
    expect(/scope="([^"]*)"/.exec(challenge)?.[1]?.split(' ').sort()).toEqual(
      ['requests:read', 'requests:write', 'reservations:read', 'restaurants:read'].sort(),
    )
    expect(challenge).toContain('resource_metadata="http://localhost:8787/.well-known/oauth-protected-resource/mcp"')
    expect(res.message).toMatchObject({ code: 'insufficient_scope', message: expect.stringContaining('requests:write') })
    expect((await callTool(token, 'svc_list_requests', {})).structured).toEqual(before.structured)
    const noSearch = await newToken({ scopes: scopesWithout('restaurants:read') })
    const search = await mcpPost(rpc('tools/call', { name: 'svc_find_restaurants', arguments: { q: 'Lilac' } }), { token: noSearch })
    expect(search.status).toBe(403)
    expect(search.headers.get('WWW-Authenticate')).toMatch(/scope="[^"]*restaurants:read/)
  })

  it('hide reservations without reservations:read, as REST does', async () => {
    const token = await newToken({ scopes: scopesWithout('reservations:read') })
    const view = await createActive(token)
    await insertReservation(String(view.id), { verified: true })
    expect((await callTool(token, 'svc_get_request', { request_id: view.id })).structured?.reservations).toEqual([])
  })

  it("never show one user's request to another", async () => {
    const owner = await newToken()
    const view = await createActive(owner)
    const stranger = await newToken()
    expect((await callTool(stranger, 'svc_get_request', { request_id: view.id })).error?.code).toBe('request_not_found')
    expect((await callTool(stranger, 'svc_stop_request', { request_id: view.id })).error?.code).toBe('request_not_found')
    expect((await callTool(owner, 'svc_get_request', { request_id: view.id })).structured?.status).toBe('active')
  })
})

describe('connecting without requests:read', () => {
  it('is refused with 403 and the scope challenge', async () => {
    const token = await newToken({ scopes: scopesWithout('requests:read') })
    const res = await mcpPost(rpc('tools/list'), { token })
    expect(res.status).toBe(403)
    expect(res.headers.get('WWW-Authenticate')).toContain('error="insufficient_scope"')
    expect(res.headers.get('WWW-Authenticate')).toMatch(/scope="[^"]*requests:read/)
    expect(res.message).toMatchObject({ code: 'insufficient_scope' })
  })
})
