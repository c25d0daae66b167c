// How the sandbox's answer to a call differs from the platform's: status, the headers that
// matter to the client (content type, the CDN's headers and cookie names), and the JSON's shape
// (which fields exist and what type they hold). Values are not compared: the two hold different
// restaurants and accounts; it is the shape the client has to read.

export interface AnswerView {
  status: number
  headers: Headers
  /** The parsed JSON body, or undefined when the body was not JSON. */
  json: unknown
}

export interface ShapeDifference {
  path: string
  detail: string
}

type Kind = 'string' | 'number' | 'boolean' | 'null' | 'object' | 'array'

const kindOf = (v: unknown): Kind =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : (typeof v as 'string' | 'number' | 'boolean' | 'object')

/** Objects keyed by ids (find templates, the reservations' venues map) are read as one entry. */
const isIdMap = (o: object) => {
  const keys = Object.keys(o)
  return keys.length > 0 && keys.every((k) => /^\d+$/.test(k))
}

/** path → the kinds seen there; array elements merged under `[]`, id-keyed maps under `{id}`. */
export function shapeOf(value: unknown, path = '', into = new Map<string, Set<Kind>>()): Map<string, Set<Kind>> {
  const kind = kindOf(value)
  const here = path || '(root)'
  into.set(here, (into.get(here) ?? new Set()).add(kind))
  if (Array.isArray(value)) for (const item of value) shapeOf(item, `${path}[]`, into)
  else if (value !== null && typeof value === 'object') {
    const map = isIdMap(value)
    for (const [k, v] of Object.entries(value)) shapeOf(v, map ? `${path}{id}` : path ? `${path}.${k}` : k, into)
  }
  return into
}

/** Cookie names with their per-site suffix folded: visid_incap_123456 → visid_incap_*. */
const cookieNames = (headers: Headers) =>
  new Set(headers.getSetCookie().map((c) => (c.split('=')[0] ?? '').trim().replace(/_\d+(?:_\d+)*$/, '_*')))

/** Headers whose presence the client's reading depends on (docs/platform.md, "The CDN"). */
const NOTABLE_HEADERS = ['x-cdn', 'x-iinfo', 'x-cache', 'retry-after']

const baseType = (headers: Headers) => (headers.get('content-type') ?? '(none)').split(';')[0]?.trim().toLowerCase() ?? '(none)'
const kinds = (set: Set<Kind> | undefined) => [...(set ?? [])].sort().join('|')

export function differencesFromSandbox(platform: AnswerView, sandbox: AnswerView): ShapeDifference[] {
  const found: ShapeDifference[] = []
  if (platform.status !== sandbox.status) found.push({ path: '(status)', detail: `platform ${platform.status}, sandbox ${sandbox.status}` })
  if (baseType(platform.headers) !== baseType(sandbox.headers))
    found.push({ path: '(content-type)', detail: `platform ${baseType(platform.headers)}, sandbox ${baseType(sandbox.headers)}` })
  for (const name of NOTABLE_HEADERS) {
    const [p, s] = [platform.headers.has(name), sandbox.headers.has(name)]
    if (p !== s) found.push({ path: `(header ${name})`, detail: p ? 'only the platform sends it' : 'only the sandbox sends it' })
  }
  const [pc, sc] = [cookieNames(platform.headers), cookieNames(sandbox.headers)]
  for (const name of pc) if (!sc.has(name)) found.push({ path: `(cookie ${name})`, detail: 'only the platform sets it' })
  for (const name of sc) if (!pc.has(name)) found.push({ path: `(cookie ${name})`, detail: 'only the sandbox sets it' })
  if (platform.json === undefined || sandbox.json === undefined) {
    if ((platform.json === undefined) !== (sandbox.json === undefined))
      found.push({ path: '(body)', detail: platform.json === undefined ? 'the platform answered no JSON' : 'the sandbox answered no JSON' })
    return found
  }
  const [ps, ss] = [shapeOf(platform.json), shapeOf(sandbox.json)]
  // A part missing on one side is reported once, at its top: not again for each field inside it.
  const missing: string[] = []
  const inside = (path: string) => missing.some((top) => path.startsWith(top) && /^[.[{]/.test(path.slice(top.length)))
  for (const [path, kind] of ps) {
    const other = ss.get(path)
    if (!other) {
      if (!inside(path)) found.push({ path, detail: `only on the platform (${kinds(kind)})` })
      missing.push(path)
    } else if (kinds(kind) !== kinds(other)) found.push({ path, detail: `platform ${kinds(kind)}, sandbox ${kinds(other)}` })
  }
  for (const [path, kind] of ss) {
    if (ps.has(path)) continue
    if (!inside(path)) found.push({ path, detail: `only in the sandbox (${kinds(kind)})` })
    missing.push(path)
  }
  return found
}
