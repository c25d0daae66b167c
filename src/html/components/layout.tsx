// The page frame: header with the service name, navigation (with the unread badge when
// signed in), the main column and a short footer.
import type { Child } from 'hono/jsx'
import type { SessionUser } from '../../auth/session'
import { CsrfInput } from './form'

export interface LayoutProps {
  title: string
  path: string
  user: SessionUser | null
  unread: number
  csrfToken: string
  children?: Child
}

function NavLink(props: { href: string; path: string; children?: Child }) {
  const current = props.path === props.href || props.path.startsWith(`${props.href}/`)
  return (
    <a href={props.href} aria-current={current ? 'page' : undefined}>
      {props.children}
    </a>
  )
}

function Nav(props: { path: string; user: SessionUser | null; unread: number; csrfToken: string }) {
  if (!props.user) {
    return (
      <nav aria-label="Main">
        <NavLink href="/developers" path={props.path}>
          Developers
        </NavLink>
        <NavLink href="/signin" path={props.path}>
          Sign in
        </NavLink>
        <a class="nav-cta" href="/signup">
          Create account
        </a>
      </nav>
    )
  }
  return (
    <nav aria-label="Main">
      <NavLink href="/requests" path={props.path}>
        Requests
      </NavLink>
      <NavLink href="/calendar" path={props.path}>
        Calendar
      </NavLink>
      <NavLink href="/assistants" path={props.path}>
        Assistants
      </NavLink>
      <NavLink href="/notifications" path={props.path}>
        Notifications
        {props.unread > 0 ? (
          <>
            <span class="badge">{props.unread > 99 ? '99+' : props.unread}</span>
            <span class="visually-hidden"> unread</span>
          </>
        ) : null}
      </NavLink>
      <NavLink href="/settings" path={props.path}>
        Settings
      </NavLink>
      <NavLink href="/developers" path={props.path}>
        Developers
      </NavLink>
      <form method="post" action="/signout" class="nav-form">
        <CsrfInput token={props.csrfToken} />
        <button type="submit" class="link-button">
          Sign out
        </button>
      </form>
    </nav>
  )
}

export function Layout(props: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
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
      <body>
        <a class="skip-link" href="#main">
          Skip to content
        </a>
        <header class="site-header">
          <div class="header-inner">
            <a class="brand" href="/">
              Tablewatch
            </a>
            <Nav path={props.path} user={props.user} unread={props.unread} csrfToken={props.csrfToken} />
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
          {props.user ? <p class="muted">Signed in as {props.user.email}</p> : null}
        </footer>
      </body>
    </html>
  )
}
