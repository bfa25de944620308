// The Vue 3 app: createApp + mount, a re-render with new props (reactive state), unmount.
import { createApp, h, nextTick, reactive } from 'vue';
import type { AppProps, MountedApp } from '../types.js';
import App from './App.vue';

export async function mount(container: HTMLElement, props: AppProps): Promise<MountedApp> {
  const state = reactive({ ...props });
  const app = createApp({ render: () => h(App, state) });
  app.mount(container);
  await nextTick();
  return {
    async update(changes) {
      Object.assign(state, changes);
      await nextTick();
    },
    unmount: () => app.unmount(),
  };
}
