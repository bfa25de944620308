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
import { runServerRenderedScenario } from './scenario.js';

type Hydrate = (container: HTMLElement, props: AppProps, onWarning: (message: string) => void) => Promise<MountedApp>;

describe('Vue 3 server rendering (renderToString in Node, createSSRApp + mount in the browser)', () => {
  it('the server markup upgrades, hydrates without a mismatch and works', async function () {
    this.timeout(30000);
    const warnings: string[] = [];
    await runServerRenderedScenario<{ hydrate: Hydrate }>({
      app: 'vue',
      // What the server sent: the string bindings as attributes; the object left out (no "[object Object]").
      checkMarkup(markup) {
        expect(markup).not.to.match(/dynamic-?variables/i);
        expect(markup).not.to.contain('[object Object]');
      },
      async hydrate({ hydrate }, container, props) {
        const app = await hydrate(container, props, (message) => warnings.push(message));
        expect(warnings, 'no Vue warning (hydration mismatch)').to.deep.equal([]);
        return app;
      },
    });
    expect(warnings).to.deep.equal([]);
  });
});
