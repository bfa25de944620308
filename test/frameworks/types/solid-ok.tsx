// A correct Solid use of <voice-agent-widget>, typed by `import type {} from 'voice-agent-widget/solid'`: attributes,
// properties as `prop:` (Solid sets attributes unless told), events as `on:`. Compiles with 0 errors.
import type {} from 'voice-agent-widget/solid';
import type { VoiceAgentWidget } from 'voice-agent-widget';

let widget: VoiceAgentWidget | undefined;

export const Support = () => (
  <voice-agent-widget
    ref={widget}
    agent-id="agent_demo_support"
    variant="tiny"
    prop:dynamicVariables={{ a: 1, name: 'Ada' }}
    prop:textContents={{ start_chat: 'Chat with us' }}
    on:voice-agent-message={(event) => console.log(event.detail.source, event.detail.text)}
  />
);
