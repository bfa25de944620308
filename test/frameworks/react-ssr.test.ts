/**
 * Server rendering (issue 12 item 3): the React app rendered in Node with react-dom/server (bundle-apps.mjs; the
 * widget's define.js imported there registers nothing) is put in the page before the widget is defined, as a server's
 * HTML arrives; then the client bundle loads (it defines the element: the server-rendered `<voice-agent-widget
 * agent-id>` upgrades) and hydrateRoot takes the markup over: no hydration error (React's onRecoverableError, console
 * errors of React's development build), the same element kept, and the common scenario after it (scenario.ts).
 * The app is README's Next.js client component (apps/react/server-rendered-widget.tsx): the dynamic variables as the
 * `dynamic-variables` attribute and the listeners added in an effect, since React 19's hydration applies neither a
 * custom element's properties nor its on<event> props (facebook/react#35446; with the React 19 form, `dynamicVariables`
 * is still {} after hydration).
 */
import { expect } from '@open-wc/testing';
import type { AppProps, MountedApp } from './apps/types.js';
import { loadApp, runScenario, serviceUrl } from './scenario.js';

type Hydrate = (container: HTMLElement, props: AppProps, onRecoverableError: (error: unknown) => void) => Promise<MountedApp>;

describe('React 19 server rendering (renderToString in Node, hydrateRoot in the browser)', () => {
  it('the server markup upgrades, hydrates without an error and works', async function () {
    this.timeout(30000);
    const recoverable: unknown[] = [];
    let serverElement: Element | null = null;
    await runScenario(
      async () => {
        expect(customElements.get('voice-agent-widget'), 'not defined before the client bundle').to.equal(undefined);
        const { hydrate } = await loadApp<{ hydrate: Hydrate }>('react');
        expect(serverElement!.matches(':defined'), 'the server-rendered element upgraded once the bundle defined it').to.equal(true);
        return async (container, props) => {
          const app = await hydrate(container, props, (error) => recoverable.push(error));
          expect(recoverable, 'no recoverable (hydration) error').to.deep.equal([]);
          expect(container.querySelector('voice-agent-widget') === serverElement, 'hydration kept the server-rendered element').to.equal(true);
          return app;
        };
      },
      {
        label: 'react-ssr',
        dynamicVariablesAs: 'attribute',
        async before(container) {
          const markupUrl = `/__frameworks__/react-ssr/markup.js?serverUrl=${encodeURIComponent(serviceUrl)}`;
          const { markup } = (await import(markupUrl)) as { markup: string };
          // What the server sent: attributes, the dynamic variables as their JSON attribute.
          expect(markup).to.contain('<voice-agent-widget agent-id="agent_demo_support"');
          expect(markup).to.contain('variant="compact"');
          expect(markup).to.contain('dynamic-variables="{&quot;customer_name&quot;:&quot;Grace&quot;}"');
          container.innerHTML = markup;
          serverElement = container.querySelector('voice-agent-widget');
          expect(serverElement!.matches(':defined'), 'not upgraded yet').to.equal(false);
        },
      },
    );
    expect(recoverable).to.deep.equal([]);
  });
});
