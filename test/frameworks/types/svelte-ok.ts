// A correct Svelte 5 use of <voice-agent-widget>, typed by `import type {} from 'voice-agent-widget/svelte'`: the
// attributes svelte-check reads from `SvelteHTMLElements` for `<voice-agent-widget ...>` in a .svelte file (properties
// by name, as Svelte 5 sets a property the element has; events as `on<event>`). Compiles with 0 errors.
import type {} from 'voice-agent-widget/svelte';
import type { SvelteHTMLElements } from 'svelte/elements';

export const attributes: SvelteHTMLElements['voice-agent-widget'] = {
  'agent-id': 'agent_demo_support',
  variant: 'tiny',
  dynamicVariables: { a: 1, name: 'Ada' },
  textContents: { start_chat: 'Chat with us' },
  'onvoice-agent-message': (event) => console.log(event.detail.source, event.detail.text),
};

/** Server-rendered markup: the JSON attribute as a string. */
export const markup: SvelteHTMLElements['voice-agent-widget'] = { 'agent-id': 'agent_demo_support', 'dynamic-variables': '{"a":1}' };
