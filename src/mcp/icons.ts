// The service's icon (public/favicon.svg) for hosts that show one beside the server and its tools.
import type { Icon } from '@modelcontextprotocol/server'

export function serviceIcons(baseUrl: string): Icon[] {
  return [{ src: `${baseUrl}/favicon.svg`, mimeType: 'image/svg+xml', sizes: ['any'] }]
}
