// WRONG: a misspelt property (`dynamicVariable` for `dynamicVariables`).
import type {} from 'voice-agent-widget/svelte';
import type { SvelteHTMLElements } from 'svelte/elements';

export const attributes: SvelteHTMLElements['voice-agent-widget'] = { 'agent-id': 'agent_demo_support', dynamicVariable: { a: 1 } };
