// The Svelte 5 app: mount, a re-render with new values (the component's exported update + flushSync), unmount.
import { flushSync, mount as mountComponent, unmount } from 'svelte';
import type { AppProps, MountedApp } from '../types.js';
import App from './App.svelte'; // compiled by esbuild-svelte (test/frameworks/bundle-apps.mjs)

export async function mount(container: HTMLElement, props: AppProps): Promise<MountedApp> {
  const app = mountComponent(App, { target: container, props }) as { update(changes: Partial<AppProps>): void };
  flushSync();
  return {
    async update(changes) {
      app.update(changes);
      flushSync();
    },
    unmount: () => void unmount(app),
  };
}
