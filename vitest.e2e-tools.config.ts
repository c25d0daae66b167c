import { e2eProject } from './test/e2e/project'

// The tools around the service, end to end (test/e2e/tools/): MCP hosts and clients, the OpenAPI
// client and lint, the README's commands and snippets, and the npm scripts as a user runs them
// (npm start, deploy:check, mcp:inspect, the --help of simulate and bench), some against servers
// of their own. Configured as the e2e project (test/e2e/project.ts), with its own service.
export default e2eProject('e2e-tools', ['test/e2e/tools/**/*.test.ts'])
