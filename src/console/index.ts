// The local stand-in for Slack as other tools use it (the benchmarks): the fake Web API, the demo's people, and
// requests signed and shaped as Slack sends them. `npm run demo` is console/main.ts.

export { DEMO_PEOPLE } from './demo.js';
export { startFakeSlack } from './fake-slack.js';
export { blockActionsBody, type ClickedButton, type SlackPerson, slashCommandBody, TEAM } from './payloads.js';
export { signedRequest } from './signing.js';
