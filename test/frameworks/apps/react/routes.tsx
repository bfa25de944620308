// The routed React app (test/frameworks/routes.ts, issue 21 item 3): a root layout with two routes switched by state,
// as a router would switch them, and the plain React 19 widget either in the layout's footer (routes keep it) or in the
// home route's view (leaving the route unmounts it; coming back mounts a new element). In the footer the widget is
// one of three keyed siblings: putting it last makes React move its element (insertBefore / appendChild of the
// connected element: removed and inserted again in one task).
import { useEffect, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import type { MountedRoutedApp, RoutedAppProps } from '../types.js';
import { Widget } from './widget.js';

function Home({ children }: { children?: ReactNode }) {
  return (
    <section className="route">
      <h2>Home</h2>
      <p>Welcome.</p>
      {children}
    </section>
  );
}

function Pricing() {
  return (
    <section className="route">
      <h2>Pricing</h2>
      <p>Plans from 9 a month.</p>
    </section>
  );
}

/** The root layout: the nav, the routed view, the footer; and a callback once React has committed (effects run). */
function RoutedApp({ onCommit, placement, route, widgetLast, ...props }: RoutedAppProps & { onCommit: () => void }) {
  useEffect(onCommit);
  const footer = [<Widget key="widget" {...props} />, <p key="hours">Open 9 to 5</p>, <p key="contact">hello@example.com</p>];
  if (widgetLast) footer.push(footer.shift()!);
  return (
    <div className="layout">
      <nav>
        <a href="#home">Home</a> <a href="#pricing">Pricing</a>
      </nav>
      {route === 'home' ? <Home>{placement === 'route' && <Widget {...props} />}</Home> : <Pricing />}
      {placement === 'layout' && <footer>{footer}</footer>}
    </div>
  );
}

let resolveCommit = () => {};
const commit = () => resolveCommit();
const nextCommit = () => new Promise<void>((resolve) => (resolveCommit = resolve));

export async function mountRoutes(container: HTMLElement, props: RoutedAppProps): Promise<MountedRoutedApp> {
  const root = createRoot(container);
  let current = props;
  const render = async (): Promise<void> => {
    const done = nextCommit();
    flushSync(() => root.render(<RoutedApp {...current} onCommit={commit} />));
    await done;
  };
  await render();
  return {
    async update(changes) {
      current = { ...current, ...changes };
      await render();
    },
    unmount: () => root.unmount(),
  };
}
