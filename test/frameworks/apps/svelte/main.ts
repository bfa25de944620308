// The Svelte 5 app: mount (mount), or hydrate over the markup server.ts rendered for the same props (hydrate;
// test/frameworks/svelte-ssr.test.ts); a re-render with new values (the component's exported update + flushSync),
// unmount.
import { flushSync, hydrate as hydrateComponent, mount as mountComponent, unmount } from 'svelte';
import type { AppProps, MountedApp } from '../types.js';
import App from './App.svelte'; // compiled by esbuild-svelte (test/frameworks/bundle-apps.mjs)

function controls(app: { update(changes: Partial<AppProps>): void }): MountedApp {
  return {
    async update(changes) {
      app.update(changes);
      flushSync();
    },
    unmount: () => void unmount(app),
  };
}

export async function mount(container: HTMLElement, props: AppProps): Promise<MountedApp> {
  const app = mountComponent(App, { target: container, props }) as { update(changes: Partial<AppProps>): void };
  flushSync();
  return controls(app);
}

/** Hydrates the markup svelte/server rendered for the same props (Svelte's mismatch warnings go to the console). */
export async function hydrate(container: HTMLElement, props: AppProps): Promise<MountedApp> {
  const app = hydrateComponent(App, { target: container, props }) as { update(changes: Partial<AppProps>): void };
  flushSync();
  return controls(app);
}
