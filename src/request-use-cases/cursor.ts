// The list's opaque cursor: where the previous page ended, as (createdAt, id) of its last
// request. The list schema checks that a cursor is one of these, so a bad one is refused
// where the caller sent it (the REST query, the MCP arguments) like any other field.

export interface Cursor {
  createdAt: number
  id: string
}

export function encodeCursor(c: Cursor): string {
  return btoa(JSON.stringify([c.createdAt, c.id])).replace(/=+$/, '')
}

export function decodeCursor(value: string): Cursor | null {
  try {
    const [createdAt, id] = JSON.parse(atob(value)) as unknown[]
    if (typeof createdAt === 'number' && typeof id === 'string') return { createdAt, id }
  } catch {
    // not one of ours
  }
  return null
}

export function isCursor(value: string): boolean {
  return decodeCursor(value) !== null
}
