// The page frame: header with the service name, the navigation (with the unread badge when
// signed in), the main column and a short footer. On a phone the signed-in navigation is a tab bar
// at the bottom of the screen, as in the reservation platform's own app: Home, Requests, Inbox,
// Calendar, and More (Assistants, Settings, Sign out) in a <details> that needs no script. On a
// wider screen the same links sit in one row of the header.
import type { Child } from 'hono/jsx'
import type { SessionUser } from '../../auth/session'
import { CsrfInput } from './form'
import { NavIcon } from './nav-icons'

export interface LayoutProps {
  title: string
  path: string
  user: SessionUser | null
  unread: number
  csrfToken: string
  children?: Child
}

const isCurrent = (path: string, href: string) => (href === '/' ? path === '/' : path === href || path.startsWith(`${href}/`))

function NavLink(props: { href: string; path: string; icon?: Parameters<typeof NavIcon>[0]['name']; children?: Child }) {
  return (
    <a href={props.href} aria-current={isCurrent(props.path, props.href) ? 'page' : undefined}>
      {props.icon ? <NavIcon name={props.icon} /> : null}
      <span class="nav-label">{props.children}</span>
    </a>
  )
}

function Unread(props: { unread: number }) {
  if (props.unread <= 0) return null
  return (
    <>
      <span class="badge">{props.unread > 99 ? '99+' : props.unread}</span>
      <span class="visually-hidden"> unread</span>
    </>
  )
}

function SignOut(props: { csrfToken: string }) {
  return (
    <form method="post" action="/signout" class="nav-form">
      <CsrfInput token={props.csrfToken} />
      <button type="submit" class="link-button">
        Sign out
      </button>
    </form>
  )
}

/** Where the links of "More" go: the same three on every width (a phone folds them). */
function MoreLinks(props: { path: string; csrfToken: string }) {
  return (
    <>
      <li>
        <NavLink href="/assistants" path={props.path}>
          Assistants
        </NavLink>
      </li>
      <li>
        <NavLink href="/settings" path={props.path}>
          Settings
        </NavLink>
      </li>
      <li>
        <SignOut csrfToken={props.csrfToken} />
      </li>
    </>
  )
}

function SignedInNav(props: { path: string; unread: number; csrfToken: string }) {
  const { path } = props
  const inMore = ['/assistants', '/settings', '/developers'].some((href) => isCurrent(path, href))
  return (
    <nav aria-label="Main" class="main-nav">
      <ul class="nav-tabs">
        <li class="phone-only">
          <NavLink href="/" path={path} icon="home">
            Home
          </NavLink>
        </li>
        <li>
          <NavLink href="/requests" path={path} icon="requests">
            Requests
          </NavLink>
        </li>
        <li>
          <a href="/notifications" aria-current={isCurrent(path, '/notifications') ? 'page' : undefined}>
            <NavIcon name="inbox" />
            <span class="nav-label">Inbox</span>
            <Unread unread={props.unread} />
          </a>
        </li>
        <li>
          <NavLink href="/calendar" path={path} icon="calendar">
            Calendar
          </NavLink>
        </li>
        <li class="phone-only">
          <details class={inMore ? 'nav-more current' : 'nav-more'}>
            <summary>
              <NavIcon name="more" />
              <span class="nav-label">More</span>
            </summary>
            <ul class="nav-more-list">
              <MoreLinks path={path} csrfToken={props.csrfToken} />
            </ul>
          </details>
        </li>
      </ul>
      <ul class="nav-wide">
        <MoreLinks path={path} csrfToken={props.csrfToken} />
      </ul>
    </nav>
  )
}

function SignedOutNav(props: { path: string }) {
  return (
    <nav aria-label="Main" class="signed-out-nav">
      <NavLink href="/signin" path={props.path}>
        Sign in
      </NavLink>
      <a class="nav-cta" href="/signup">
        Create account
      </a>
    </nav>
  )
}

export function Layout(props: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <title>{props.title === 'Tablewatch' ? 'Tablewatch' : `${props.title} · Tablewatch`}</title>
        <meta name="color-scheme" content="light dark" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {/* Add to Home Screen: iOS delivers Web Push only to a site added there. */}
        <link rel="manifest" href="/manifest.webmanifest" />
        <link rel="apple-touch-icon" href="/apple-touch-icon.png" />
        <meta name="theme-color" content="#1f6f5c" />
        <link rel="stylesheet" href="/styles.css" />
        <script src="/app.js" defer></script>
      </head>
      <body class={props.user ? 'signed-in' : undefined}>
        <a class="skip-link" href="#main">
          Skip to content
        </a>
        <header class="site-header">
          <div class="header-inner">
            <a class="brand" href="/">
              Tablewatch
            </a>
            {props.user ? (
              <SignedInNav path={props.path} unread={props.unread} csrfToken={props.csrfToken} />
            ) : (
              <SignedOutNav path={props.path} />
            )}
          </div>
        </header>
        <main id="main" tabindex={-1}>
          {props.children}
        </main>
        <footer class="site-footer">
          <p>
            Tablewatch watches for tables; it never charges you and never cancels a reservation. Manage existing reservations on the
            reservation platform itself.
          </p>
          <p class="muted">
            {props.user ? <>Signed in as {props.user.email} · </> : null}
            <a href="/developers">For developers</a> · <a href="/privacy">Privacy</a>
          </p>
        </footer>
      </body>
    </html>
  )
}
