/**
 * Server rendering with Svelte 5: the Svelte app rendered in Node with svelte/server's render (bundle-apps.mjs;
 * App.svelte compiled with generate: 'server'; the widget's define.js imported there registers nothing) is put in the
 * page before the widget is defined, as a server's HTML arrives; then the client bundle loads (it defines the element:
 * the server-rendered `<voice-agent-widget agent-id>` upgrades) and svelte's hydrate takes the markup over: no
 * hydration mismatch (console errors and warnings of Svelte's development build: hydration_mismatch), the same
 * element kept (Svelte re-creates the DOM when hydration fails), and the common scenario after it (scenario.ts).
 * The app is the client-only one, unchanged (apps/svelte/App.svelte: `dynamicVariables={{…}}` as an object). The
 * server writes every attribute as a string, the object too: `dynamicvariables="[object Object]"` (lowercased) is in
 * the HTML and stays on the element; the widget ignores it (its attribute is `dynamic-variables`). Svelte's hydration
 * sets a registered custom element's properties as a client render does (set_custom_element_data), so
 * `dynamicVariables` is the object and the listeners are on once hydrated; unlike React 19 (react-ssr.test.ts).
 */
import { expect } from '@open-wc/testing';
import type { AppProps, MountedApp } from './apps/types.js';
import { loadApp, runScenario, serviceUrl } from './scenario.js';

type Hydrate = (container: HTMLElement, props: AppProps) => Promise<MountedApp>;

describe('Svelte 5 server rendering (svelte/server render in Node, hydrate in the browser)', () => {
  it('the server markup upgrades, hydrates without a mismatch and works', async function () {
    this.timeout(30000);
    let serverElement: Element | null = null;
    await runScenario(
      async () => {
        expect(customElements.get('voice-agent-widget'), 'not defined before the client bundle').to.equal(undefined);
        const { hydrate } = await loadApp<{ hydrate: Hydrate }>('svelte');
        expect(serverElement!.matches(':defined'), 'the server-rendered element upgraded once the bundle defined it').to.equal(true);
        return async (container, props) => {
          const app = await hydrate(container, props);
          // Compared as a boolean: on a failure, chai would print the two (live, connected) widgets, which hangs the page.
          expect(container.querySelector('voice-agent-widget') === serverElement, 'hydration kept the server-rendered element').to.equal(true);
          // The server's stray attribute stays (the widget reads only `dynamic-variables`); the property is set.
          expect(serverElement!.getAttribute('dynamicvariables')).to.equal('[object Object]');
          return app;
        };
      },
      {
        label: 'svelte-ssr',
        async before(container) {
          const markupUrl = `/__frameworks__/svelte-ssr/markup.js?serverUrl=${encodeURIComponent(serviceUrl)}`;
          const { markup } = (await import(markupUrl)) as { markup: string };
          // What the server sent: the string bindings as attributes.
          expect(markup).to.contain('<voice-agent-widget agent-id="agent_demo_support"');
          expect(markup).to.contain('variant="compact"');
          // svelte/server writes every attribute of an element as a string: the object too, under its lowercased name.
          expect(markup).to.contain('dynamicvariables="[object Object]"');
          expect(markup).not.to.contain('dynamic-variables');
          container.innerHTML = markup;
          serverElement = container.querySelector('voice-agent-widget');
          expect(serverElement!.matches(':defined'), 'not upgraded yet').to.equal(false);
        },
      },
    );
  });
});
