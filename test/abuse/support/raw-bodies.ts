// Bodies that are not JSON, or not sent as JSON, for every route that takes a body.
import { code, DETAIL, type Refusal } from './contract'

export interface RawBody {
  name: string
  body: string | Uint8Array
  contentType?: string
  want: Refusal
}

const MALFORMED: [string, string | Uint8Array][] = [
  ['an empty body', ''],
  ['whitespace only', '   \n\t '],
  ['an unclosed object', '{'],
  ['a lone closing brace', '}'],
  ['a trailing comma', '{"venue_ids": [1,], "dates": []}'],
  ['single quotes', "{'title': 'x'}"],
  ['unquoted keys', '{title: "x"}'],
  ['NaN', 'NaN'],
  ['undefined', 'undefined'],
  ['trailing garbage', '{}x'],
  ['two objects', '{"a":1}{"b":2}'],
  ['a byte order mark', '\uFEFF{}'],
  ['a comment', '{/* hi */}'],
  ['a bare word', 'dinner'],
  ['a truncated string', '{"title": "dinn'],
  ['a control character in a string', '{"title": "a\u0001b"'],
  ['invalid UTF-8', new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])],
  ['a lone surrogate escape', '{"title": "\\ud800"'],
  ['an 800-deep array', '['.repeat(800)],
  ['Infinity', '{"party_size": Infinity}'],
  ['a hex number', '{"party_size": 0x10}'],
  ['a leading plus', '{"party_size": +2}'],
]

const NOT_OBJECTS: [string, string][] = [
  ['JSON null', 'null'],
  ['JSON true', 'true'],
  ['a JSON string', '"dinner for two"'],
  ['a JSON number', '123'],
  ['an empty array', '[]'],
  ['an array of an object', '[{}]'],
  ['a 3,000-deep array', '['.repeat(3000) + ']'.repeat(3000)],
]

/** Malformed JSON (422 json_invalid, or anything 4xx in the contract's format) and non-objects. */
export function malformedBodies(): RawBody[] {
  return [
    ...MALFORMED.map(([name, body]) => ({ name: `malformed JSON: ${name}`, body, want: DETAIL })),
    ...NOT_OBJECTS.map(([name, body]) => ({ name: `not an object: ${name}`, body, want: DETAIL })),
    { name: 'a body over 64 KiB', body: `{"title": "${'x'.repeat(70_000)}"}`, want: code('payload_too_large', 413) },
    { name: 'a 200 kB body of spaces', body: ' '.repeat(200_000), want: code('payload_too_large', 413) },
  ]
}

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/xml',
  'text/json',
  'application/jsonx',
  'application/json-patch+json',
  'application/vnd.api+json',
  'application/json, text/plain',
  'json',
  '*/*',
]

/** A valid JSON body under a content type that is not JSON: 415 unsupported_media_type. */
export function wrongContentTypes(validBody: string): RawBody[] {
  return [
    { name: 'no content type', body: validBody, want: code('unsupported_media_type', 415) },
    ...CONTENT_TYPES.map((contentType) => ({
      name: `content type ${contentType}`,
      body: validBody,
      contentType,
      want: code('unsupported_media_type', 415),
    })),
  ]
}
