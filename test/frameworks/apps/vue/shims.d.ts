// A .vue file, for the type check (tsconfig.json): compiled by @vitejs/plugin-vue when bundled (bundle-apps.mjs).
declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent<object, object, unknown>;
  export default component;
}
