// Where sign-in returns to: only a path on this site, never another origin.

const BASE = 'http://same-origin.invalid'
const AUTH_PAGES = new Set(['/signin', '/signup', '/signout'])

/**
 * A same-site path, or `/`. The check applies to the normalised result, the string that ends up
 * in `Location`: `/.//evil.example` normalises to `//evil.example`, which a browser reads as
 * another host, so anything that normalises to a scheme-relative or backslash path is refused.
 */
export function safeNextPath(next: string | undefined | null): string {
  if (!next?.startsWith('/')) return '/'
  let url: URL
  try {
    url = new URL(next, BASE)
  } catch {
    return '/'
  }
  if (url.origin !== BASE || AUTH_PAGES.has(url.pathname)) return '/'
  const path = url.pathname + url.search + url.hash
  if (!path.startsWith('/') || path.startsWith('//') || path.includes('\\')) return '/'
  return path
}
