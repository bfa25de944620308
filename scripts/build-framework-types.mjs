// The frameworks' types of <voice-agent-widget> (issue 12 item 2), part of `npm run build` after the .d.ts files and
// custom-elements.json: generated from custom-elements.json by break-stuff's cem-tools generators
// (custom-element-jsx-integration, custom-element-vuejs-integration, custom-element-solidjs-integration), run
// standalone on the manifest, into dist/types/frameworks/. Nothing here names an attribute, a property or an event:
// they all come from the manifest, their types from the element's class (`variant` is `VoiceAgentWidget['variant']`,
// the union the class declares; an event's detail is its class's, through `HTMLElementEventMap`).
//
//   jsx.d.ts        generated: `CustomElements`, the element's JSX props (attributes, properties, `on<event>`)
//   react.d.ts      React 19: `React.JSX.IntrinsicElements` extends jsx.d.ts's `CustomElements`
//   svelte.d.ts     Svelte 5: `SvelteHTMLElements` of 'svelte/elements' extends the same
//   solid-jsx.d.ts  generated: the same for Solid (`prop:` properties, `on:` events)
//   solid.d.ts      Solid: `JSX.IntrinsicElements` of 'solid-js' extends solid-jsx.d.ts's `CustomElements`
//   vue.d.ts        generated, Vue 3: `GlobalComponents` of 'vue' (the generator writes the augmentation itself)
//
// The augmentation files (react, svelte, solid) are the one-line step each generator's README leaves to its user;
// they are written here so that a user needs only `import type {} from 'voice-agent-widget/react'` (package.json
// "exports"). custom-element-svelte-integration is not used: it writes Svelte 4's `on:`/`bind:` and its output does
// not compile (`JSX.Element` without a JSX namespace; `svelteHTML` declared inside a module, so never global), while
// Svelte 5 sets properties and listens to `on<event>` as React 19 does: the JSX types fit it.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateJsxTypes } from 'custom-element-jsx-integration';
import { generateSolidJsTypes } from 'custom-element-solidjs-integration';
import { generateVuejsTypes } from 'custom-element-vuejs-integration';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUTDIR = path.join(ROOT, 'dist/types/frameworks');
/** The element classes' module, relative to OUTDIR: dist/types/index.d.ts (it also loads src/events/' event map). */
const TYPES_FROM = '../index.js';
/** The manifest's key for the types given to the JSX generator (its `typesSrc` option). */
const TYPES_SRC = 'jsxType';

/**
 * The manifest as the generators read it. It differs from custom-elements.json in conventions of theirs only:
 * - They read an event's `type` as its `detail` type (they write `CustomEvent<type>`). The element's events are typed
 *   `Event` subclasses with a `detail`, each in `HTMLElementEventMap` (src/events/, DESIGN.md rule 7): each event is
 *   given `HTMLElementEventMap["<name>"]["detail"]`, so a handler's `e.detail` has the event's own type (and an event
 *   missing from `HTMLElementEventMap` fails the type check of the generated files).
 * - They list a field that has an attribute under its attribute's name only. React 19, Preact, Vue, Solid and Svelte 5
 *   set the property of an element that has one (`dynamicVariables={{...}}` sets the object, not `[object Object]`):
 *   a field whose attribute has another name (`dynamic-variables`) is listed under its own name too.
 * - `jsx: true` (React 19, Svelte 5, Preact): these set a name the element has no property of (`dynamic-variables`)
 *   as an attribute, which holds text, so an attribute whose property is an object takes its JSON string. They
 *   type attributes with their property's type (`globalTypePath`), so every type is given here instead (`typesSrc`):
 *   a property its class's, `VoiceAgentWidget["variant"]`; an attribute of another name than its property's the
 *   property's type, or `string` where that is an object (decided by TypeScript: `P extends object ? string : P`).
 * - `vue: true`: they name an event's listener prop `on` + the event's name (`onvoice-agent-message`); Vue's templates
 *   look for `on` + its camelized, capitalized name (`@voice-agent-message` is `onVoiceAgentMessage`, which Vue's
 *   runtime turns back into the `voice-agent-message` listener): the event is given that name.
 * @param {any} manifest custom-elements.json
 * @param {{ jsx?: boolean, vue?: boolean }} [options]
 */
export function manifestForGenerators(manifest, { jsx = false, vue = false } = {}) {
  const copy = structuredClone(manifest);
  for (const module of copy.modules ?? []) {
    for (const declaration of module.declarations ?? []) {
      if (!declaration.customElement) continue;
      for (const event of declaration.events ?? []) {
        if (!event.name) continue;
        event.type = { text: `HTMLElementEventMap[${JSON.stringify(event.name)}]["detail"]` };
        if (vue) event.name = event.name.replace(/(?:^|-)(\w)/g, (_, letter) => letter.toUpperCase());
      }
      for (const member of declaration.members ?? []) {
        if (member.kind === 'field' && member.attribute && member.attribute !== member.name) delete member.attribute;
      }
      if (!jsx) continue;
      const property = (name) => `import(${JSON.stringify(TYPES_FROM)}).${declaration.name}[${JSON.stringify(name)}]`;
      for (const member of declaration.members ?? []) member[TYPES_SRC] = { text: property(member.name) };
      for (const attribute of declaration.attributes ?? []) {
        const type = attribute.fieldName ? property(attribute.fieldName) : 'string';
        // Under its property's own name (`variant`) it is set as the property.
        const text = !attribute.fieldName || attribute.fieldName === attribute.name ? type : `${type} extends object ? string : ${type}`;
        attribute[TYPES_SRC] = { text };
      }
    }
  }
  return copy;
}

/** The augmentation file of a framework: imports the generated `CustomElements` and adds them to `module`'s interface in `body`. */
function augmentation({ what, from, module, body }) {
  return `// ${what}
// Generated by scripts/build-framework-types.mjs (npm run build) around ${from}, which custom-element-*-integration
// generated from custom-elements.json.
import type { CustomElements } from '${from}';
export type { CustomElements } from '${from}';

declare module '${module}' {
${body}
}
`;
}

export function buildFrameworkTypes() {
  const elements = JSON.parse(readFileSync(path.join(ROOT, 'custom-elements.json'), 'utf8'));
  mkdirSync(OUTDIR, { recursive: true });
  const options = (fileName) => ({ outdir: OUTDIR, fileName, globalTypePath: TYPES_FROM, hideLogs: true });
  // (custom-element-jsx-integration 1.6 logs its last line even with hideLogs.)
  const log = console.log;
  console.log = () => {};
  try {
    generateJsxTypes(manifestForGenerators(elements, { jsx: true }), { outdir: OUTDIR, fileName: 'jsx.d.ts', typesSrc: TYPES_SRC, hideLogs: true });
    generateSolidJsTypes(manifestForGenerators(elements), options('solid-jsx.d.ts'));
    generateVuejsTypes(manifestForGenerators(elements, { vue: true }), options('vue.d.ts'));
  } finally {
    console.log = log;
  }
  writeFileSync(path.join(OUTDIR, 'react.d.ts'), augmentation({
    what: "React 19: <voice-agent-widget> in TSX. Enable with `import type {} from 'voice-agent-widget/react';`",
    from: './jsx.js',
    module: 'react',
    body: '  namespace JSX {\n    interface IntrinsicElements extends CustomElements {}\n  }',
  }));
  writeFileSync(path.join(OUTDIR, 'svelte.d.ts'), augmentation({
    what: "Svelte 5: <voice-agent-widget> in .svelte files. Enable with `import type {} from 'voice-agent-widget/svelte';`",
    from: './jsx.js',
    module: 'svelte/elements',
    body: '  interface SvelteHTMLElements extends CustomElements {}',
  }));
  writeFileSync(path.join(OUTDIR, 'solid.d.ts'), augmentation({
    what: "Solid: <voice-agent-widget> in TSX. Enable with `import type {} from 'voice-agent-widget/solid';`",
    from: './solid-jsx.js',
    module: 'solid-js',
    body: '  namespace JSX {\n    interface IntrinsicElements extends CustomElements {}\n  }',
  }));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) buildFrameworkTypes();
