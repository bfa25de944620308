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
import { runServerRenderedScenario } from './scenario.js';

type Hydrate = (container: HTMLElement, props: AppProps) => Promise<MountedApp>;

describe('Svelte 5 server rendering (svelte/server render in Node, hydrate in the browser)', () => {
  it('the server markup upgrades, hydrates without a mismatch and works', async function () {
    this.timeout(30000);
    await runServerRenderedScenario<{ hydrate: Hydrate }>({
      app: 'svelte',
      // What the server sent: the string bindings as attributes. svelte/server writes every attribute of an element
      // as a string: the object too, under its lowercased name.
      checkMarkup(markup) {
        expect(markup).to.contain('dynamicvariables="[object Object]"');
        expect(markup).not.to.contain('dynamic-variables');
      },
      hydrate: ({ hydrate }, container, props) => hydrate(container, props),
      // The server's stray attribute stays (the widget reads only `dynamic-variables`); the property is set.
      afterHydrate: (serverElement) => expect(serverElement.getAttribute('dynamicvariables')).to.equal('[object Object]'),
    });
  });
});
