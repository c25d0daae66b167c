// The dinner's name in an approval mail's link, sealed, so the sign-in page can
// say "Sign in to approve Birthday for 6 at Pomelo Garden · Sat, Dec 5" to whoever opens the mail.
//
// The words are the mail's own subject, so the link tells nothing the mail does not; sealed
// (AES-GCM with PLATFORM_TOKEN_KEY, its purpose bound as additional data) they cannot be read from
// the address in a log or a history list, nor forged into a page that names someone else's
// dinner or says anything a stranger chose. A hint is good only for the request its path names.
import { z } from 'zod'
import { open, seal } from './secret-box'

const PURPOSE = 'sign-in-hint v1'
/** Long enough for a mail read late; the words are never more than the mail's subject. */
const HINT_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000
const MAX_WORDS = 200

const Hint = z.object({ r: z.string(), w: z.string().max(MAX_WORDS), e: z.number() })

const toUrl = (base64: string) => base64.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
const fromUrl = (text: string) => {
  const base64 = text.replaceAll('-', '+').replaceAll('_', '/')
  return base64 + '='.repeat((4 - (base64.length % 4)) % 4)
}

const HINT_PARAM = 'hint'
const APPROVAL_PATH = /^\/requests\/([^/]+)\/approve$/

/** The approval link with the sealed words added; any other link unchanged. */
export async function withSignInHint(key: string, link: string, words: string, now: number): Promise<string> {
  // A link that is not absolute is left as it is: a mail is never lost over its hint.
  const url = URL.canParse(link) ? new URL(link) : null
  const requestId = url ? APPROVAL_PATH.exec(url.pathname)?.[1] : undefined
  if (!url || !requestId) return link
  const hint: z.infer<typeof Hint> = { r: requestId, w: words.slice(0, MAX_WORDS), e: now + HINT_LIFETIME_MS }
  const sealed = await seal(key, JSON.stringify(hint), PURPOSE)
  url.searchParams.set(HINT_PARAM, `${toUrl(sealed.iv)}.${toUrl(sealed.ciphertext)}`)
  return url.toString()
}

/** The words of a same-site path's hint, when it is ours, unexpired and for the request of that path. */
export async function signInHintOf(key: string, path: string, now: number): Promise<string | null> {
  const url = new URL(path, 'http://same-origin.invalid')
  const requestId = APPROVAL_PATH.exec(url.pathname)?.[1]
  const hint = url.searchParams.get(HINT_PARAM) ?? ''
  const [iv, ciphertext, ...rest] = hint.split('.')
  if (!requestId || !iv || !ciphertext || rest.length > 0 || hint.length > 1024) return null
  try {
    const opened = Hint.safeParse(JSON.parse(await open(key, { iv: fromUrl(iv), ciphertext: fromUrl(ciphertext) }, PURPOSE)))
    return opened.success && opened.data.r === requestId && opened.data.e > now ? opened.data.w : null
  } catch {
    return null
  }
}
