// The Vue 3 app: createApp + mount (mount), or createSSRApp + mount over the markup server.ts rendered for the same
// props (hydrate; test/frameworks/vue-ssr.test.ts); a re-render with new props (reactive state), unmount.
import { createApp, createSSRApp, h, nextTick, reactive, type Component } from 'vue';
import type { AppProps, MountedApp, MountedRoutedApp, RoutedAppProps } from '../types.js';
import App from './App.vue';
import Routes from './Routes.vue';

function start<P extends object, M>(container: HTMLElement, props: P, create: typeof createApp, component: Component, onWarning?: (message: string) => void): Promise<M> {
  const state = reactive({ ...props });
  const app = create({ render: () => h(component, state) });
  if (onWarning) app.config.warnHandler = (message) => onWarning(message);
  app.mount(container);
  return nextTick().then(() => ({
    async update(changes: Partial<P>) {
      Object.assign(state, changes);
      await nextTick();
    },
    unmount: () => app.unmount(),
  }) as M);
}

export function mount(container: HTMLElement, props: AppProps): Promise<MountedApp> {
  return start(container, props, createApp, App);
}

/** Hydrates the server's markup in `container`; Vue's warnings (hydration mismatches among them) go to `onWarning`. */
export function hydrate(container: HTMLElement, props: AppProps, onWarning: (message: string) => void): Promise<MountedApp> {
  return start(container, props, createSSRApp, App, onWarning);
}

/** The routed app (Routes.vue; test/frameworks/routes.ts): a route switch or a footer reorder through reactive state. */
export function mountRoutes(container: HTMLElement, props: RoutedAppProps): Promise<MountedRoutedApp> {
  return start(container, props, createApp, Routes);
}
