// The request view for MCP Apps hosts (the Apps extension, SEP-1865): one `ui://` resource of
// type `text/html;profile=mcp-app`, listed by resources/list and served by resources/read, which
// the get, create and update tools name in `_meta.ui.resourceUri`. A host with Apps renders it in
// a sandboxed frame and hands it the tool's result; every other host ignores the metadata and
// shows the result's text and structuredContent, which do not change.
import type { McpServer } from '@modelcontextprotocol/server'
import { requestViewPage } from './request-view-page'

/** The extension's identifier, as capabilities name it. */
export const APPS_EXTENSION = 'io.modelcontextprotocol/ui'
export const APP_MIME_TYPE = 'text/html;profile=mcp-app'
const REQUEST_VIEW_URI = 'ui://tablewatch/request.html'

/** The tools whose result is one request view: the ones that show it. */
const TOOLS_WITH_THE_VIEW = new Set(['svc_get_request', 'svc_create_request', 'svc_update_request'])

/** The tool's `_meta` for Apps hosts, or none. */
export function viewMetaOf(toolName: string): { ui: { resourceUri: string } } | undefined {
  return TOOLS_WITH_THE_VIEW.has(toolName) ? { ui: { resourceUri: REQUEST_VIEW_URI } } : undefined
}

/**
 * What the host enforces on the frame: no domain for anything, so the view can neither fetch
 * nor load from the network; it has a border of the host's (a card in the conversation).
 */
const VIEW_UI_META = { ui: { csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] }, prefersBorder: true } }

export function registerRequestView(server: McpServer, origin: string): void {
  server.registerResource(
    'request_view',
    REQUEST_VIEW_URI,
    {
      title: 'Request card',
      description: "A request's status, what it watches, tables found and what happens next.",
      mimeType: APP_MIME_TYPE,
      _meta: VIEW_UI_META,
    },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: APP_MIME_TYPE, text: await requestViewPage(origin), _meta: VIEW_UI_META }],
    }),
  )
}
