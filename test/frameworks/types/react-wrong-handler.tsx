// WRONG: `voice-agent-message` is not a MouseEvent.
import type {} from 'voice-agent-widget/react';

export const wrongHandler = (
  <voice-agent-widget agent-id="agent_demo_support" onvoice-agent-message={(event: MouseEvent) => console.log(event.clientX)} />
);
