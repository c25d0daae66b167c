// Where sign-in returns to: only a path on this site, never another origin.

const BASE = 'http://same-origin.invalid'

export function safeNextPath(next: string | undefined | null): string {
  if (!next?.startsWith('/') || next.startsWith('//') || next.includes('\\')) return '/'
  try {
    const url = new URL(next, BASE)
    if (url.origin !== BASE) return '/'
    if (url.pathname === '/signin' || url.pathname === '/signup' || url.pathname === '/signout') return '/'
    return url.pathname + url.search + url.hash
  } catch {
    return '/'
  }
}
