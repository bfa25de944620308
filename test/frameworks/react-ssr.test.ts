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
import { runServerRenderedScenario } from './scenario.js';

type Hydrate = (container: HTMLElement, props: AppProps, onRecoverableError: (error: unknown) => void) => Promise<MountedApp>;

describe('React 19 server rendering (renderToString in Node, hydrateRoot in the browser)', () => {
  it('the server markup upgrades, hydrates without an error and works', async function () {
    this.timeout(30000);
    const recoverable: unknown[] = [];
    await runServerRenderedScenario<{ hydrate: Hydrate }>({
      app: 'react',
      dynamicVariablesAs: 'attribute',
      // What the server sent: attributes, the dynamic variables as their JSON attribute.
      checkMarkup: (markup) => expect(markup).to.contain('dynamic-variables="{&quot;customer_name&quot;:&quot;Grace&quot;}"'),
      async hydrate({ hydrate }, container, props) {
        const app = await hydrate(container, props, (error) => recoverable.push(error));
        expect(recoverable, 'no recoverable (hydration) error').to.deep.equal([]);
        return app;
      },
    });
    expect(recoverable).to.deep.equal([]);
  });
});
