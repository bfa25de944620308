// The Svelte 5 app rendered on a server (Node, no DOM): svelte/server's render, as SvelteKit's server does. App.svelte
// is compiled for the server by esbuild-svelte (generate: 'server', bundle-apps.mjs); its define.js import registers
// nothing there.
import { render as renderComponent } from 'svelte/server';
import type { AppProps } from '../types.js';
import App from './App.svelte';

export function render(props: Pick<AppProps, 'serverUrl' | 'agentId' | 'customerName' | 'variant'>): string {
  return renderComponent(App, { props: { ...props, onMessage: () => {}, onConversation: () => {} } }).body;
}
