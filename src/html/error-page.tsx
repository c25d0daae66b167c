// The HTML error format: every error a page shows goes through errorPage, the web app's
// onError included. An AppError picks the page and status; a form that failed its schema is
// `invalid_request`; anything else is `internal` (logged, never shown).
import type { Context } from 'hono'
import { z } from 'zod'
import { AppError, toAppError } from '../errors'
import { CsrfRefusedPage, ErrorPage, type NextStep, NotFoundPage } from './errors'
import { renderPage, type WebEnv } from './render'

const BAD_FORM = 'This form was not filled in as expected. Go back, reload the page and try again.'

function fromPage(err: unknown): AppError {
  if (err instanceof z.ZodError) return new AppError('invalid_request', BAD_FORM)
  return toAppError(err)
}

/** The error's page; `next` is the step that gets the user on (a new link, sign in), shown first. */
export function errorPage(c: Context<WebEnv>, err: unknown, next?: NextStep): Promise<Response> {
  const error = fromPage(err)
  switch (error.code) {
    case 'not_found':
      return renderPage(c, 'Page not found', <NotFoundPage />, 404)
    case 'csrf_failed':
      return renderPage(c, 'Form expired', <CsrfRefusedPage />, 403)
    case 'internal':
      // The failure may be D1 itself: the page goes out without the unread badge's query.
      return renderPage(c, 'Something went wrong', <ErrorPage title="Something went wrong" message={error.message} />, 500, {
        unread: false,
      })
    default:
      return renderPage(
        c,
        'Something is not right',
        <ErrorPage title="Something is not right" message={error.message} next={next} />,
        error.status,
      )
  }
}

export const pageNotFound = () => new AppError('not_found', 'There is nothing at this address.')
