import { e2eProject } from './test/e2e/project'

// End-to-end suites in Node: the global setup starts the sandbox platform and the service as two
// `wrangler dev` processes on free ports with their own local state, and the tests drive them
// over HTTP (the service's pages and API, the sandbox's control API) and with a headless browser.
// This project holds what a person does in the browser (test/e2e/*.test.ts); the tools around the
// service (test/e2e/tools/) are the e2e-tools project, with servers of its own.
export default e2eProject('e2e', ['test/e2e/**/*.test.ts'], ['test/e2e/tools/**', 'test/e2e/account/**'])
