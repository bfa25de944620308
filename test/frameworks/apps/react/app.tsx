// The React 19 apps: App (createRoot + render: mount) with the plain React 19 widget, and ServerRenderedApp
// (react-dom/server in Node, then hydrateRoot over its markup: hydrate; test/frameworks/react-ssr.test.ts) with the
// Next.js client component; each re-rendered with new props, and unmounted.
import { useEffect } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import type { AppProps, MountedApp } from '../types.js';
import { ServerRenderedWidget } from './server-rendered-widget.js';
import { Widget } from './widget.js';

/** The page: the widget, and a callback once React has committed (effects run). */
function App({ onCommit, ...props }: AppProps & { onCommit: () => void }) {
  useEffect(onCommit);
  return (
    <main>
      <h1>React 19</h1>
      <Widget {...props} />
    </main>
  );
}

function controls(root: Root, Page: typeof App, props: AppProps): MountedApp {
  let current = props;
  return {
    async update(changes) {
      current = { ...current, ...changes };
      const done = nextCommit();
      flushSync(() => root.render(<Page {...current} onCommit={commit} />));
      await done;
    },
    unmount: () => root.unmount(),
  };
}

let resolveCommit = () => {};
const commit = () => resolveCommit();
const nextCommit = () => new Promise<void>((resolve) => (resolveCommit = resolve));

export async function mount(container: HTMLElement, props: AppProps): Promise<MountedApp> {
  const root = createRoot(container);
  const done = nextCommit();
  flushSync(() => root.render(<App {...props} onCommit={commit} />));
  await done;
  return controls(root, App, props);
}

/** Hydrates the markup react-dom/server rendered for the same props; React's recoverable errors go to `onRecoverableError`. */
export async function hydrate(container: HTMLElement, props: AppProps, onRecoverableError: (error: unknown) => void): Promise<MountedApp> {
  const done = nextCommit();
  const root = hydrateRoot(container, <ServerRenderedApp {...props} onCommit={commit} />, { onRecoverableError });
  await done;
  return controls(root, ServerRenderedApp, props);
}

/** The server-rendered page: the Next.js client component. */
function ServerRenderedApp({ onCommit, ...props }: AppProps & { onCommit: () => void }) {
  useEffect(onCommit);
  return (
    <main>
      <h1>React 19, server-rendered</h1>
      <ServerRenderedWidget {...props} />
    </main>
  );
}

export { ServerRenderedApp };

/** The routed app (routes.tsx; test/frameworks/routes.ts). */
export { mountRoutes } from './routes.js';
