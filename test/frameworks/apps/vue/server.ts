// The Vue 3 app rendered on a server (Node, no DOM): createSSRApp + vue/server-renderer's renderToString, as a
// framework's server build does (Nuxt, Vite SSR). App.vue is compiled for the server by @vitejs/plugin-vue with the
// same isCustomElement option (bundle-apps.mjs); its define.js import registers nothing there.
import { createSSRApp, h } from 'vue';
import { renderToString } from 'vue/server-renderer';
import type { AppProps } from '../types.js';
import App from './App.vue';

export function render(props: Pick<AppProps, 'serverUrl' | 'agentId' | 'customerName' | 'variant'>): Promise<string> {
  return renderToString(createSSRApp({ render: () => h(App, { ...props, onMessage: () => {}, onConversation: () => {} }) }));
}
