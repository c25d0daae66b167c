// The assistants page: create (shown once), list and revoke personal access tokens.
import { Hono } from 'hono'
import { z } from 'zod'
import { revokeAccessToken } from '../../access/revoke'
import { createAccessToken } from '../../auth/pat'
import { currentUser, requireSession } from '../../auth/session'
import { Scope } from '../../core/scopes'
import type { WebEnv } from '../../html/render'
import { withoutControlCharacters } from '../../lib/text'
import { depsOf } from '../../runtime/deps'
import { showAssistants } from './assistants-view'
import { DISCONNECTED_NOTICE, grantsRoutes } from './grants'

const createTokenForm = z.object({
  name: z.string().overwrite(withoutControlCharacters).trim().min(1, 'Give the token a name').max(60, 'Use at most 60 characters'),
  scopes: z.array(Scope, { error: 'Choose from the listed scopes' }).min(1, 'Choose at least one scope'),
})

const TOKEN_NOT_FOUND = 'That token is not one of yours, so nothing was revoked.'
const REVOKED_NOTICE = 'Token revoked. Assistants using it can no longer reach your account, and its open requests are now revoked.'

/** Checkbox groups arrive as a string for one box and an array for several. */
function asList(value: unknown): unknown[] {
  if (value === undefined) return []
  return Array.isArray(value) ? value : [value]
}

export const assistantsRoutes = new Hono<WebEnv>()
assistantsRoutes.use('/assistants', requireSession())
assistantsRoutes.use('/assistants/*', requireSession())
assistantsRoutes.route('/', grantsRoutes)

assistantsRoutes.get('/assistants', (c) => {
  const notice = c.req.query('revoked') === '1' ? REVOKED_NOTICE : c.req.query('disconnected') === '1' ? DISCONNECTED_NOTICE : undefined
  return showAssistants(c, { notice })
})

assistantsRoutes.post('/assistants/tokens', async (c) => {
  const body = await c.req.parseBody({ all: true })
  const name = typeof body.name === 'string' ? body.name : ''
  const parsed = createTokenForm.safeParse({ name, scopes: asList(body.scopes) })
  if (!parsed.success) {
    const errors = z.flattenError(parsed.error).fieldErrors
    const scopes = asList(body.scopes).filter((s): s is string => typeof s === 'string')
    return showAssistants(c, { form: { name, scopes, errors: { name: errors.name?.[0], scopes: errors.scopes?.[0] } } }, 422)
  }
  const user = currentUser(c)
  const deps = depsOf(c.env)
  const { token, record } = await createAccessToken(deps.db, {
    userId: user.id,
    name: parsed.data.name,
    scopes: parsed.data.scopes,
    now: deps.now,
  })
  // The token is in this response only. The page's script replaces the URL, so a reload is a
  // plain GET of /assistants that no longer shows it.
  return showAssistants(c, { newToken: { name: record.name, token, expiresAt: record.expiresAt } }, 201)
})

assistantsRoutes.post('/assistants/tokens/:id/revoke', async (c) => {
  const user = currentUser(c)
  const revoked = await revokeAccessToken(depsOf(c.env), user.id, c.req.param('id'))
  if (!revoked) return showAssistants(c, { error: TOKEN_NOT_FOUND }, 404)
  return c.redirect('/assistants?revoked=1', 303)
})
