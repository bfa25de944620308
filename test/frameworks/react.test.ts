// The react app of test/frameworks/apps/react/, bundled against the built package (bundle-apps.mjs), through the common
// scenario (scenario.ts): object property, events through the framework's syntax, a text conversation, a re-render, an
// unmount that leaves no socket.
import { describeRoutes } from './routes.js';
import { loadApp, runScenario } from './scenario.js';

describe('React 19 (createRoot, dynamicVariables={{…}}, onvoice-agent-message)', () => {
  it('renders the widget, talks, re-renders with new values and unmounts leaving no socket', async function () {
    this.timeout(30000);
    await runScenario(async () => (await loadApp('react')).mount, { label: 'react' });
  });
});

// Issue 21 item 3: the routed app (apps/react/routes.tsx) through routes.ts.
describeRoutes('react', 'React 19 routes (a conversation kept across route changes, restored when the widget is mounted again)');
