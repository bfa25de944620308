// WRONG: a misspelt property (`dynamicVariable` for `dynamicVariables`).
import type {} from 'voice-agent-widget/vue';
import type { GlobalComponents } from 'vue';

export const props: InstanceType<GlobalComponents['voice-agent-widget']>['$props'] = { 'agent-id': 'agent_demo_support', dynamicVariable: { a: 1 } };
