// Every bad REST input of the suite, built from the served OpenAPI document: for each
// operation, its body, header, query and path parameters broken in every way the schemas
// allow, plus malformed bodies, wrong content types and methods the document does not list.
import type { z } from 'zod'
import { RequestSpec, UpdateBody } from '../../../src/request-use-cases/schemas'
import { newKey } from '../../helpers/api'
import { ANY, code, DETAIL, type Refusal, status } from './contract'
import { type Call, jsonHeaders } from './http'
import { badValues, HUGE, type ObjectExamples, objectMutants } from './mutate'
import { type ApiDocument, type ApiOperation, operationName, type Parameter } from './openapi'
import { malformedBodies, wrongContentTypes } from './raw-bodies'
import { namedRuleCases, specExamples, updateExamples, windowCases, zoneCases } from './spec-cases'

export interface Probe {
  /** Which operation it targets, for batching and reports. */
  operation: string
  name: string
  call: Call
  want: Refusal
}

export interface Target {
  token: string
  /** A request the token owns, for the routes with {request_id}; bad inputs must leave it as it is. */
  requestId: string
  revision: number
}

const BODY_LIMIT = 64 * 1024

/** What the zod schema says about a body: over the size limit, refused by the schema, or accepted. */
export function expectationOf(body: unknown, schema: z.ZodType): Refusal {
  const text = JSON.stringify(body) ?? ''
  if (new TextEncoder().encode(text).length > BODY_LIMIT) return code('payload_too_large', 413)
  return schema.safeParse(body).success ? ANY : DETAIL
}

function fillPath(op: ApiOperation, target: Target, overrides: Record<string, string> = {}): string {
  return op.path.replace(/\{(\w+)\}/g, (_m, name: string) => overrides[name] ?? (name === 'request_id' ? target.requestId : '1'))
}

const takesKey = (op: ApiOperation) => op.parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key')

function baseHeaders(op: ApiOperation, target: Target, extra: Record<string, string> = {}) {
  return jsonHeaders(target.token, takesKey(op) ? { 'Idempotency-Key': newKey(), ...extra } : extra)
}

interface BodyKind {
  examples: ObjectExamples
  zod: z.ZodType
  /** Whole specs the document cannot describe (refinements and named rules), wrapped for this body. */
  extra: (spec: unknown) => unknown
}

function bodyKind(op: ApiOperation, target: Target): BodyKind {
  if (op.body?.properties?.spec) {
    return { examples: updateExamples(target.revision), zod: UpdateBody, extra: (spec) => ({ revision: target.revision, spec }) }
  }
  return { examples: specExamples(), zod: RequestSpec, extra: (spec) => spec }
}

function bodyProbes(op: ApiOperation, target: Target): Probe[] {
  if (!op.body) return []
  const kind = bodyKind(op, target)
  const path = fillPath(op, target)
  const operation = operationName(op)
  const probe = (name: string, body: unknown, want: Refusal): Probe => ({
    operation,
    name,
    want,
    call: { method: op.method, path, headers: baseHeaders(op, target), body: JSON.stringify(body) },
  })
  const generated = objectMutants(op.body, kind.examples).map((m) => probe(m.name, m.value, expectationOf(m.value, kind.zod)))
  // A zone the schema accepts is still not the venue's zone: the named rule refuses it.
  const zones = zoneCases().map((m) => {
    const body = kind.extra(m.value)
    const want = expectationOf(body, kind.zod)
    return probe(m.name, body, want.kind === 'any' ? code('venue_timezone_mismatch', 422) : want)
  })
  const windows = windowCases().map((m) => {
    const body = kind.extra(m.value)
    return probe(m.name, body, expectationOf(body, kind.zod))
  })
  const named = namedRuleCases().map((m) => probe(m.name, kind.extra(m.value), m.want))
  const validBody = JSON.stringify(kind.examples.valid)
  const raw = [...malformedBodies(), ...wrongContentTypes(validBody)].map((r): Probe => {
    const headers: Record<string, string> = { ...baseHeaders(op, target) }
    delete headers['Content-Type']
    if (r.contentType !== undefined) headers['Content-Type'] = r.contentType
    if (r.contentType === undefined && r.want.kind !== 'code') headers['Content-Type'] = 'application/json'
    return { operation, name: r.name, want: r.want, call: { method: op.method, path, headers, body: r.body } }
  })
  return [...generated, ...zones, ...windows, ...named, ...raw]
}

/** Idempotency keys: missing, and every way the document's pattern can be missed. */
const ODD_KEYS = [
  'short7c',
  'k'.repeat(129),
  'k'.repeat(5000),
  'has space in it',
  'slash/slash/slash',
  'semi;colon;key',
  'quote"quote"',
  'comma,comma,key',
  'percent%20key',
  'tab\there-here',
  'equals=equals=',
  'star*star*star',
  'brace{brace}',
  'hash#hash#hash',
  'at@at@at@at',
]

function headerProbes(op: ApiOperation, target: Target): Probe[] {
  if (!takesKey(op) || !op.body) return []
  const operation = operationName(op)
  const path = fillPath(op, target)
  const body = JSON.stringify(bodyKind(op, target).examples.valid)
  const withKey = (name: string, key: string | undefined, want: Refusal): Probe => {
    const headers = jsonHeaders(target.token)
    return {
      operation,
      name,
      want,
      call: { method: op.method, path, headers: key === undefined ? headers : { ...headers, 'Idempotency-Key': key }, body },
    }
  }
  return [
    withKey('Idempotency-Key missing', undefined, code('idempotency_key_required', 422)),
    // An empty header is sent but says nothing: either refusal the contract allows is fine.
    withKey('Idempotency-Key empty', '', status(422)),
    ...ODD_KEYS.map((key) => withKey(`Idempotency-Key ${JSON.stringify(key.slice(0, 20))} (${key.length} chars)`, key, DETAIL)),
  ]
}

function queryValueProbes(op: ApiOperation, target: Target, param: Parameter): Probe[] {
  const operation = operationName(op)
  const path = fillPath(op, target)
  const required = op.parameters.filter((p) => p.in === 'query' && p.required && p.name !== param.name)
  const rest = required.map((p) => `${p.name}=${encodeURIComponent('ab')}`)
  const probe = (name: string, value: string | undefined): Probe => {
    const parts = value === undefined ? rest : [...rest, `${param.name}=${encodeURIComponent(value)}`]
    return {
      operation,
      name: `query ${param.name}: ${name}`,
      want: DETAIL,
      call: { method: op.method, path: `${path}?${parts.join('&')}`, headers: jsonHeaders(target.token) },
    }
  }
  const out: Probe[] = []
  if (param.required) out.push(probe('missing', undefined))
  if (param.schema.type === 'integer') {
    for (const v of ['abc', '1.5', 'NaN', 'Infinity', '-Infinity', '99999999999999999999', 'true', '[1]'])
      out.push(probe(JSON.stringify(v), v))
    for (const m of badValues(param.schema, undefined).filter((m) => typeof m.value === 'number' && Math.abs(m.value) < 1e6))
      out.push(probe(m.name, String(m.value)))
  }
  if (param.schema.type === 'string') {
    for (const m of badValues(param.schema, 'ab').filter((m) => typeof m.value === 'string' && m.value.length <= HUGE))
      out.push(probe(m.name, String(m.value)))
  }
  // An opaque cursor the service never handed out: not JSON, the wrong JSON, or a NUL.
  if (param.name === 'cursor') {
    for (const v of ['not-a-cursor!', 'e30', 'WzFd', 'WyIxIiwieCJd', 'bnVsbA', '\u0000', '===='])
      out.push(probe(`forged ${JSON.stringify(v)}`, v))
  }
  return out
}

function pathProbes(op: ApiOperation, target: Target): Probe[] {
  const operation = operationName(op)
  const out: Probe[] = []
  for (const param of op.parameters.filter((p) => p.in === 'path')) {
    const values: [string, Refusal][] =
      param.schema.type === 'integer'
        ? [
            '0',
            '-1',
            '1.5',
            'abc',
            'NaN',
            'Infinity',
            '1e400',
            '9007199254740993',
            '99999999999999999999',
            '%20',
            '1%00',
            '0x10',
            '1,2',
            '%F0%9F%8D%9D',
          ].map((v) => [v, ANY])
        : [
            ['x'.repeat((param.schema.maxLength ?? 100) + 1), DETAIL],
            ['x'.repeat(5000), DETAIL],
            ['sr_doesnotexist', code('request_not_found', 404)],
            ...[
              '%00',
              '%20',
              '%2e%2e',
              'sr_%F0%9F%8D%9D',
              '%25',
              "sr_'or'1'='1",
              '%C0%AF',
              '%E0%A4%A',
              '%FF%FE',
              'sr_%0Anext',
              '%3Cscript%3E',
            ].map((v): [string, Refusal] => [v, ANY]),
          ]
    for (const [value, want] of values) {
      const headers = op.body ? baseHeaders(op, target) : jsonHeaders(target.token)
      const body = op.body ? JSON.stringify(bodyKind(op, target).examples.valid) : undefined
      out.push({
        operation,
        name: `path ${param.name} ${JSON.stringify(value.slice(0, 30))}`,
        want,
        call: { method: op.method, path: fillPath(op, target, { [param.name]: value }), headers, ...(body ? { body } : {}) },
      })
    }
  }
  return out
}

const ALL_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const

/** Methods the document does not list for a path: 404 or 405, in the contract's format. */
function methodProbes(doc: ApiDocument, target: Target): Probe[] {
  const out: Probe[] = []
  for (const path of new Set(doc.operations.map((o) => o.path))) {
    const listed = new Set(doc.operations.filter((o) => o.path === path).map((o) => o.method))
    for (const method of ALL_METHODS.filter((m) => !listed.has(m))) {
      const concrete = path.replace('{request_id}', target.requestId).replace('{reservation_id}', '1')
      out.push({
        operation: `${method} ${path}`,
        name: `method ${method} not in the document`,
        want: ANY,
        call: { method, path: concrete, headers: jsonHeaders(target.token), body: method === 'GET' ? undefined : '{}' },
      })
    }
  }
  return out
}

export function restProbes(doc: ApiDocument, target: Target): Probe[] {
  const probes: Probe[] = []
  for (const op of doc.operations) {
    if (op.path.endsWith('/openapi.json')) continue
    probes.push(...bodyProbes(op, target), ...headerProbes(op, target), ...pathProbes(op, target))
    for (const param of op.parameters.filter((p) => p.in === 'query')) probes.push(...queryValueProbes(op, target, param))
  }
  return [...probes, ...methodProbes(doc, target)]
}
