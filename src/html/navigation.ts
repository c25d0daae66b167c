// Pages whose GET records something (the inbox marks itself read, the approval page records the
// revision the owner saw) do it only for a navigation the owner started: a typed address, a
// bookmark, a link from a mail program (Sec-Fetch-Site: none) or a link on our own pages
// (same-origin). Another site can still open the page (SameSite=Lax sends the cookie on a
// top-level GET), but it sees a page that changes nothing. A browser that sends
// no Fetch Metadata (older than 2020-2023) is treated as the owner's, as before.
import type { Context } from 'hono'

export function ownerStartedNavigation(c: Context): boolean {
  const site = c.req.header('Sec-Fetch-Site')
  return site === undefined || site === 'none' || site === 'same-origin'
}
