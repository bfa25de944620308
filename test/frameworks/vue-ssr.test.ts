/**
 * Server rendering with Vue 3: the Vue app rendered in Node with createSSRApp + vue/server-renderer's renderToString
 * (bundle-apps.mjs; App.vue compiled for the server with the same isCustomElement; the widget's define.js imported
 * there registers nothing) is put in the page before the widget is defined, as a server's HTML arrives; then the
 * client bundle loads (it defines the element: the server-rendered `<voice-agent-widget agent-id>` upgrades) and
 * createSSRApp(...).mount hydrates the markup: no hydration mismatch (Vue's warnings, console errors and warnings of
 * Vue's development build), the same element kept, and the common scenario after it (scenario.ts).
 * The app is the client-only one, unchanged (apps/vue/App.vue: `:dynamicVariables` as an object): the server leaves
 * the object out of the HTML (no attribute), and Vue's hydration sets every binding of a custom element (`tagName`
 * with a `-`) as it would on a client render, so `dynamicVariables` is the object and the listeners are on once
 * hydrated; unlike React 19 (react-ssr.test.ts), nothing to change for server rendering.
 */
import { expect } from '@open-wc/testing';
import type { AppProps, MountedApp } from './apps/types.js';
import { loadApp, runScenario, serviceUrl } from './scenario.js';

type Hydrate = (container: HTMLElement, props: AppProps, onWarning: (message: string) => void) => Promise<MountedApp>;

describe('Vue 3 server rendering (renderToString in Node, createSSRApp + mount in the browser)', () => {
  it('the server markup upgrades, hydrates without a mismatch and works', async function () {
    this.timeout(30000);
    const warnings: string[] = [];
    let serverElement: Element | null = null;
    await runScenario(
      async () => {
        expect(customElements.get('voice-agent-widget'), 'not defined before the client bundle').to.equal(undefined);
        const { hydrate } = await loadApp<{ hydrate: Hydrate }>('vue');
        expect(serverElement!.matches(':defined'), 'the server-rendered element upgraded once the bundle defined it').to.equal(true);
        return async (container, props) => {
          const app = await hydrate(container, props, (message) => warnings.push(message));
          expect(warnings, 'no Vue warning (hydration mismatch)').to.deep.equal([]);
          // Compared as a boolean: on a failure, chai would print the two (live, connected) widgets, which hangs the page.
          expect(container.querySelector('voice-agent-widget') === serverElement, 'hydration kept the server-rendered element').to.equal(true);
          return app;
        };
      },
      {
        label: 'vue-ssr',
        async before(container) {
          const markupUrl = `/__frameworks__/vue-ssr/markup.js?serverUrl=${encodeURIComponent(serviceUrl)}`;
          const { markup } = (await import(markupUrl)) as { markup: string };
          // What the server sent: the string bindings as attributes; the object left out (no "[object Object]").
          expect(markup).to.contain('<voice-agent-widget agent-id="agent_demo_support"');
          expect(markup).to.contain('variant="compact"');
          expect(markup).not.to.match(/dynamic-?variables/i);
          expect(markup).not.to.contain('[object Object]');
          container.innerHTML = markup;
          serverElement = container.querySelector('voice-agent-widget');
          expect(serverElement!.matches(':defined'), 'not upgraded yet').to.equal(false);
        },
      },
    );
    expect(warnings).to.deep.equal([]);
  });
});
