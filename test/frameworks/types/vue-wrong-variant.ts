// WRONG: `variant` is 'tiny' | 'compact' | 'full' | null, not a number.
import type {} from 'voice-agent-widget/vue';
import type { GlobalComponents } from 'vue';

export const props: InstanceType<GlobalComponents['voice-agent-widget']>['$props'] = { 'agent-id': 'agent_demo_support', variant: 42 };
