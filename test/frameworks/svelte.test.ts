// The svelte app of test/frameworks/apps/svelte/, bundled against the built package (bundle-apps.mjs), through the common
// scenario (scenario.ts): object property, events through the framework's syntax, a text conversation, a re-render, an
// unmount that leaves no socket.
import { loadApp, runScenario } from './scenario.js';

describe('Svelte 5 (dynamicVariables={{…}}, onvoice-agent-message)', () => {
  it('renders the widget, talks, re-renders with new values and unmounts leaving no socket', async function () {
    this.timeout(30000);
    await runScenario(async () => (await loadApp('svelte')).mount, { label: 'svelte' });
  });
});
