import { e2eProject } from './test/e2e/project'

// The platform account's browser walks, end to end (test/e2e/account/): connecting by password, by
// texted code and through a paired device process, and booking from the device. A project of its
// own, with its own sandbox and service, only so that `npm test` can run it in the lane beside the
// e2e project (scripts/test.mjs): the two e2e lanes then take about as long as each other.
export default e2eProject('e2e-account', ['test/e2e/account/**/*.test.ts'])
