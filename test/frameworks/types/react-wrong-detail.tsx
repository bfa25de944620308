// WRONG: the message event's detail has `text`, not `txt`.
import type {} from 'voice-agent-widget/react';

export const wrongDetail = (
  <voice-agent-widget agent-id="agent_demo_support" onvoice-agent-message={(event) => console.log(event.detail.txt)} />
);
