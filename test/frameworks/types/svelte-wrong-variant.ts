// WRONG: `variant` is 'tiny' | 'compact' | 'full' | null, not a number.
import type {} from 'voice-agent-widget/svelte';
import type { SvelteHTMLElements } from 'svelte/elements';

export const attributes: SvelteHTMLElements['voice-agent-widget'] = { 'agent-id': 'agent_demo_support', variant: 42 };
