// WRONG: `placement` has no value 'middle'.
import type {} from 'voice-agent-widget/react';

export const wrongPlacement = <voice-agent-widget agent-id="agent_demo_support" placement="middle" />;
