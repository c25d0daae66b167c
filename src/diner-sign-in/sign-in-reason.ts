// Why the sign-in page asks: a line naming what the diner was about to do.
//
// It is read from the path sign-in returns to, which anyone can type, so it names only the KIND
// of action ("approve a booking request"), never anything of the request itself: its title,
// restaurant or party could tell a stranger holding the link what someone else is planning
// (docs/decisions/auth.md). The one exception is an approval mail's own
// link, which carries the mail's subject sealed (src/lib/diner-sign-in-hint.ts): it names the dinner.
import { signInHintOf } from '../lib/diner-sign-in-hint'

const REASONS: [RegExp, string][] = [
  [/^\/requests\/[^/]+\/approve$/, 'Sign in to approve or decline a booking request.'],
  [/^\/requests\/[^/]+\/(decline|stop)$/, 'Sign in to stop a dinner request.'],
  [/^\/requests\/[^/]+$/, 'Sign in to see a dinner request.'],
  [/^\/requests$/, 'Sign in to see your dinner requests.'],
  [/^\/notifications$/, 'Sign in to read your notifications.'],
  [/^\/calendar$/, 'Sign in to see your reservations calendar.'],
  [/^\/settings\/devices(\/.*)?$/, 'Sign in to manage your paired devices.'],
  [/^\/settings(\/.*)?$/, 'Sign in to change your settings.'],
  [/^\/assistants(\/.*)?$/, 'Sign in to manage your assistants.'],
  [/^\/developers(\/.*)?$/, 'Sign in to see the developer settings.'],
]

/** The reason for a safe next path (src/html/next-path.ts), or undefined for the home page and others. */
function signInReason(next: string): string | undefined {
  const path = new URL(next, 'http://same-origin.invalid').pathname
  return REASONS.find(([pattern]) => pattern.test(path))?.[1]
}

/** The reason, naming the dinner when the path carries an approval mail's sealed hint for it. */
export async function signInReasonOf(key: string, next: string, now: number): Promise<string | undefined> {
  const words = await signInHintOf(key, next, now)
  return words ? `Sign in to approve ${words}.` : signInReason(next)
}
