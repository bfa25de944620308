// WRONG: a dynamic variable is a string, number or boolean, not an object.
import type {} from 'voice-agent-widget/react';

export const nested = <voice-agent-widget agent-id="agent_demo_support" dynamicVariables={{ user: { id: 1 } }} />;
