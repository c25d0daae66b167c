// Which folder may import which (docs/architecture.md draws the same map; docs/decisions/layout.md
// says why). `npm run lint` runs this over src/, sandbox/, device/, bench/ and scripts/platform-probe/;
// a wrong import fails the build.
//
//   src/index.ts                      wiring only: may import anything
//   src/api, src/mcp                  skins        → the use cases and features, auth, core, errors, lib
//   src/web → src/account, src/diner-sign-in → src/html   the pages skin (diner pages; account pages; the pages
//                                     before signing in; the frame every page shares) → the same
//   src/operations                    the operation table: per operation its scope, schemas, use case, REST
//                                     shape and tool wording → the use cases and features below, never a skin
//   src/approval, src/access,         use cases that bring rooms together: the approval page's context,
//   src/demo, src/setup,              access given and taken back, the sandbox demo control, setup
//   src/account-mail                  progress, how account mail is sent; side by side, none imports another
//   src/request-use-cases                      the request use cases, the operation table, the API schemas → below
//   src/reservations, src/venues      a user's reservations (and their calendars); the venue catalog and
//                                     search → runtime and below, never a request
//   src/request-aggregate                       the request aggregate: decide*, state, events, the object, effects,
//                                     booking rules → watching, alerts, executors, budget and below
//   src/watching, src/alerts,         the features the request uses → runtime, budget, auth, notifications,
//   src/executors → src/devices       platform, db, core, errors, lib
//   src/runtime                       what every feature runs with (deps, object stubs) → budget, db, platform, core, lib
//   src/budget                        the one budget for cloud platform calls → platform, core, errors, lib
//   src/auth                          identity     → db, core, errors, lib
//   src/notifications                 delivery: inbox rows, email, webhook, Web Push (push/) → db, core, errors, lib
//   src/platform                      platform API → core, errors, lib
//   src/db                            D1 tables    → core, errors, lib
//   src/core, src/errors.ts           vocabulary   → lib
//   src/lib                           helpers      → nothing of ours
//   sandbox/                          the stand-in platform: nothing from src/
//   device/, bench/                   the user's own booker; the benchmark → src/platform, src/lib only
//   scripts/platform-probe/           the operator's read-only probe → src/platform (not client.ts), src/lib

const PAGES = ['web', 'account', 'diner-sign-in', 'html']
const SKINS = `^src/(api|mcp|${PAGES.join('|')})/`
/** Use cases that bring several rooms together for one purpose; they stand side by side. */
const GLUE = ['approval', 'access', 'demo', 'setup', 'account-mail']
/** Use-case rooms below the request use cases: they know no request. */
const CATALOG = ['reservations', 'venues']
const USE_CASES = [...GLUE, 'request-use-cases', ...CATALOG]
/** The operation table stands between the skins and the use cases. */
const OPERATIONS = 'operations'
const FEATURES = ['request-aggregate', 'watching', 'alerts', 'devices', 'executors']
const FEATURE_PATHS = `^src/(${[...USE_CASES, ...FEATURES, 'runtime'].join('|')})/`
const ABOVE_AUTH = ['api', 'mcp', ...PAGES, 'index', OPERATIONS, ...USE_CASES, ...FEATURES, 'runtime', 'budget']
const layer = (name) => `^src/${name}(/|\\.ts$)`

/** `from` may import nothing under these folders of src/. */
const mayNotImport = (name, from, folders, comment) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from },
  to: { path: `^src/(${folders.join('|')})(/|\\.tsx?$)` },
})

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'A cycle means two modules cannot be understood (or changed) one at a time. Type-only cycles are allowed: a binding type names its Durable Object class, whose constructor takes that env.',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    mayNotImport(
      'skins-stay-above-use-cases',
      SKINS,
      ['db', 'platform', 'notifications', 'index'],
      'A skin calls use cases (the feature folders); it never reads D1, the platform or the notifiers itself.',
    ),
    {
      name: 'skins-do-not-import-each-other',
      comment: 'REST, MCP and the pages are separate skins over the same use cases; src/index.ts wires them.',
      severity: 'error',
      from: { path: '^src/(api|mcp)/' },
      to: { path: SKINS, pathNot: '^src/$1/' },
    },
    mayNotImport(
      'pages-are-not-json-skins',
      `^src/(${PAGES.join('|')})/`,
      ['api', 'mcp'],
      'The pages skin shares nothing with REST and MCP.',
    ),
    mayNotImport(
      'the-page-frame-stays-below-the-pages',
      '^src/html/',
      ['web', 'account', 'diner-sign-in'],
      'src/html is the frame every page shares (layout, components, error page, formats): it knows no page.',
    ),
    mayNotImport(
      'account-pages-stand-alone',
      '^src/account/',
      ['web', 'diner-sign-in'],
      'The account pages are mounted by src/web/app.ts; they import nothing of the diner pages or of the pages before signing in.',
    ),
    mayNotImport(
      'sign-in-pages-stand-alone',
      '^src/diner-sign-in/',
      ['web', 'account'],
      'Sign-up, sign-in and password reset are mounted by src/web/app.ts; what they share with the account pages lives in auth or html.',
    ),
    mayNotImport(
      'the-operation-table-stays-below-the-skins',
      '^src/operations/',
      ['api', 'mcp', ...PAGES, 'index', 'db', 'platform', 'notifications'],
      'An operation says what it is (scope, schemas, use case, REST shape, tool wording); the skins read it, it knows none of them, and it reaches D1 and the platform only through its use case.',
    ),
    mayNotImport(
      'use-cases-do-not-know-the-operation-table',
      FEATURE_PATHS,
      [OPERATIONS],
      'The operation table calls the use cases; they never look back up at it.',
    ),
    mayNotImport(
      'use-cases-do-not-import-skins',
      FEATURE_PATHS,
      ['api', 'mcp', ...PAGES, 'index'],
      'Use cases know nothing of HTTP, MCP or pages.',
    ),
    {
      name: 'glue-stands-side-by-side',
      comment: 'Each glue room serves one purpose (the approval page, access, the demo, setup, account mail) and knows no other.',
      severity: 'error',
      from: { path: `^src/(${GLUE.join('|')})/` },
      to: { path: `^src/(${GLUE.join('|')})/`, pathNot: '^src/$1/' },
    },
    mayNotImport(
      'the-request-use-cases-stand-below-the-glue',
      '^src/request-use-cases/',
      GLUE,
      'The request use cases (create, read, update, stop, approve, the operation table) know none of the rooms that use them.',
    ),
    mayNotImport(
      'reservations-and-venues-know-no-request',
      `^src/(${CATALOG.join('|')})/`,
      [...GLUE, 'request-use-cases', 'request-aggregate'],
      'Reservations (and their calendars) and the venue catalog are read by the request use cases, the pages and the glue; they use none of them.',
    ),
    {
      name: 'reservations-and-venues-stand-side-by-side',
      comment: 'A reservation names its venue by id; neither room imports the other.',
      severity: 'error',
      from: { path: `^src/(${CATALOG.join('|')})/` },
      to: { path: `^src/(${CATALOG.join('|')})/`, pathNot: '^src/$1/' },
    },
    mayNotImport(
      'the-request-knows-no-use-case',
      '^src/request-aggregate/',
      USE_CASES,
      "The request aggregate (decide, state, events, the object, effects, booking rules) changes when the request's life changes; the use cases and the API schemas above it map into its own types (src/request-use-cases/spec-conversion.ts).",
    ),
    mayNotImport(
      'the-request-stands-above-the-other-features',
      '^src/(watching|alerts|devices|executors|runtime)/',
      [...USE_CASES, 'request-aggregate'],
      'A request uses watching, alerts, devices and executors; none of them imports the request or a use case back (their shared words live with them: watching/news.ts, alerts/notice.ts).',
    ),
    {
      name: 'features-stand-side-by-side',
      comment:
        'Watching, alerts and devices know nothing of each other or of the executor choice; the request (and the executor, for devices) brings them together.',
      severity: 'error',
      from: { path: '^src/(watching|alerts|devices)/' },
      to: { path: '^src/(watching|alerts|devices|executors)/', pathNot: '^src/$1/' },
    },
    mayNotImport(
      'runtime-is-below-the-features',
      layer('runtime'),
      [...USE_CASES, ...FEATURES],
      'What every feature runs with (deps, object stubs, the open requests of a user) knows no feature.',
    ),
    mayNotImport(
      'the-budget-is-below-the-features',
      layer('budget'),
      [...ABOVE_AUTH.filter((name) => name !== 'budget'), 'auth', 'notifications', 'db'],
      'The service-wide call budget is infrastructure every platform call passes: it knows no feature, no user and no table.',
    ),
    mayNotImport(
      'auth-stays-below-use-cases',
      layer('auth'),
      [...ABOVE_AUTH, 'notifications', 'platform'],
      'Identity sits below the use cases: a use case may revoke a token or grant, auth never calls a use case (index.ts injects what it must trigger).',
    ),
    mayNotImport(
      'notifications-stay-below-use-cases',
      layer('notifications'),
      [...ABOVE_AUTH, 'auth', 'platform'],
      'Notifiers take what they need (db, clock) from the caller.',
    ),
    mayNotImport(
      'platform-is-an-adapter',
      layer('platform'),
      [...ABOVE_AUTH, 'auth', 'notifications', 'db'],
      'The platform client speaks the wire format and nothing else.',
    ),
    mayNotImport(
      'db-has-its-own-types',
      layer('db'),
      [...ABOVE_AUTH, 'auth', 'notifications', 'platform'],
      'Tables and queries with their own row types; callers adapt to them, not the other way round.',
    ),
    mayNotImport(
      'core-is-a-leaf',
      '^src/(core/|errors\\.ts$)',
      [...ABOVE_AUTH, 'auth', 'notifications', 'platform', 'db'],
      'Shared vocabulary (scopes, principal, statuses, errors) imports only lib.',
    ),
    mayNotImport(
      'lib-is-a-leaf',
      layer('lib'),
      [...ABOVE_AUTH, 'auth', 'notifications', 'platform', 'db', 'core', 'errors'],
      'Helpers with no knowledge of the service.',
    ),
    {
      name: 'sandbox-is-not-the-service',
      comment:
        'The sandbox stands in for the real platform: it shares no code with the service, so a service bug cannot be mirrored by it.',
      severity: 'error',
      from: { path: '^sandbox/' },
      to: { path: '^src/' },
    },
    {
      name: 'device-and-bench-use-only-the-platform-client',
      comment:
        "The paired device books with the service's platform client, and the bench sets up its world with it (logging in, sealing the token it seeds); neither reaches a use case, D1 module or page, so what they run is what the platform sees.",
      severity: 'error',
      from: { path: '^(device|bench)/' },
      to: { path: '^src/', pathNot: '^src/(platform|lib)/' },
    },
    {
      name: 'service-does-not-import-the-sandbox',
      comment: 'The service reaches the sandbox only over HTTP (a service binding), like the real platform.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^sandbox/' },
    },
    {
      name: 'nothing-runs-the-probe',
      comment: 'The platform probe is run by an operator, by hand (npm run platform:probe); the service and the sandbox never import it.',
      severity: 'error',
      from: { path: '^(src|sandbox)/' },
      to: { path: '^scripts/' },
    },
    {
      name: 'probe-reads-only',
      comment:
        'The probe reuses the transport, headers and schemas of src/platform, never client.ts (which can book), nor anything above the platform layer or the sandbox.',
      severity: 'error',
      from: { path: '^scripts/platform-probe/' },
      to: { path: '^src/platform/client\\.ts$|^src/(?!platform/|lib/)|^sandbox/' },
    },
    {
      name: 'inner-layers-stay-off-http-and-mcp',
      comment: 'Use cases, the platform client and db never see Hono or MCP types (zod-openapi schemas are allowed).',
      severity: 'error',
      from: {
        path: `^src/(${[...USE_CASES, ...FEATURES].join('|')}|runtime|budget|platform|db|core|lib|notifications)/|^src/errors\\.ts$`,
      },
      to: { path: '^node_modules/(hono|@modelcontextprotocol|agents)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'workerd', 'worker', 'default'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.d.ts'],
    },
  },
}
