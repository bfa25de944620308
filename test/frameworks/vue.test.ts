// The vue app of test/frameworks/apps/vue/, bundled against the built package (bundle-apps.mjs), through the common
// scenario (scenario.ts): object property, events through the framework's syntax, a text conversation, a re-render, an
// unmount that leaves no socket.
import { describeRoutes } from './routes.js';
import { loadApp, runScenario } from './scenario.js';

describe('Vue 3 (:dynamicVariables, @voice-agent-message, isCustomElement)', () => {
  it('renders the widget, talks, re-renders with new values and unmounts leaving no socket', async function () {
    this.timeout(30000);
    await runScenario(async () => (await loadApp('vue')).mount, { label: 'vue' });
  });
});

// Issue 21 item 3: the routed app (apps/vue/Routes.vue) through routes.ts.
describeRoutes('vue', 'Vue 3 routes (a conversation kept across route changes, restored when the widget is mounted again)');
