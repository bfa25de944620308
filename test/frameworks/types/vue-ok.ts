// A correct Vue 3 use of <voice-agent-widget> in TypeScript, typed through `GlobalComponents` by `import type {} from
// 'voice-agent-widget/vue'`: the props Vue checks (attributes, properties, events as `on<Event>`), in a props object
// and in `h()`. Compiles with 0 errors.
import type {} from 'voice-agent-widget/vue';
import { h, type GlobalComponents } from 'vue';

type Widget = GlobalComponents['voice-agent-widget'];
/** The props Vue checks on `<voice-agent-widget ...>`. */
type WidgetProps = InstanceType<Widget>['$props'];

export const props: WidgetProps = {
  'agent-id': 'agent_demo_support',
  variant: 'compact',
  placement: 'top',
  dynamicVariables: { a: 1, name: 'Ada', vip: true },
  textContents: { start_chat: 'Chat with us' },
  defaultExpanded: true,
  onVoiceAgentMessage: (event) => console.log(event.detail.source, event.detail.text),
};

declare const VoiceAgentWidget: Widget;
export const vnode = h(VoiceAgentWidget, {
  agentId: 'agent_demo_support',
  variant: 'full',
  transcript: false,
  onVoiceAgentError: (event) => console.warn(event.detail.code),
});
